"""upref built and installed the way a user does it: a wheel built by pip from a clean copy of
this checkout, installed into a fresh virtual environment that knows nothing of the checkout.
Both are made once per test run (building and installing take a few seconds each)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from pkg_helpers import (
    BUILD_TIMEOUT_S,
    INSTALL_TIMEOUT_S,
    REPO,
    Installed,
    clean_env,
    copy_ignore,
    run,
)


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """upref's wheel, built by pip (with build isolation, as `pip install .` does) from a copy
    of the checkout without its virtual environment, build leftovers and caches; symbolic
    links are copied as links, so the build resolves them as it would in a fresh clone."""
    src = tmp_path_factory.mktemp("src") / "upref"
    shutil.copytree(REPO, src, symlinks=True, ignore=copy_ignore)
    out = tmp_path_factory.mktemp("dist")
    run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(out),
         str(src)],
        BUILD_TIMEOUT_S,
        env=clean_env(),
    )
    (built,) = out.glob("upref-*.whl")
    return built


@pytest.fixture(scope="session")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """A fresh virtual environment with the wheel installed by pip (its dependencies from the
    configured package index), and an environment that points upref's runtime and data
    folders, and HOME, into a temporary folder."""
    base = tmp_path_factory.mktemp("installed")
    venv = base / "venv"
    run([sys.executable, "-m", "venv", str(venv)], INSTALL_TIMEOUT_S, env=clean_env())
    run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", str(wheel)],
        INSTALL_TIMEOUT_S, env=clean_env())
    elsewhere = base / "elsewhere"
    elsewhere.mkdir()
    (base / "home").mkdir()
    env = clean_env(
        UPREF_RUNTIME_DIR=str(base / "run"),
        UPREF_DATA_DIR=str(base / "data"),
        HOME=str(base / "home"),
        VIRTUAL_ENV=str(venv),
        PATH=f"{venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
    )
    return Installed(venv, elsewhere, env)
