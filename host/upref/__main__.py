from upref.cli import main

raise SystemExit(main())
