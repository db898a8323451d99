"""The data upref ships (`upref.resources`) is the checkout's own firmware/ and hardware/: in the
source tree through symbolic links, in a built wheel as identical copies; every game's catalogue
ships too. UPREF_ROOT points upref at another checkout, and says so when it points nowhere."""

from __future__ import annotations

import os
import shutil
import zipfile
from pathlib import Path

import pytest
from pkg_helpers import REPO, is_junk
from upref import paths, resources
from upref.commands import deploy
from upref.hardware import __main__ as hardware_tool
from upref.link import protocol
from upref.resources import MissingDataError

PACKAGE = REPO / "host" / "upref"
LINKS = {
    "firmware": REPO / "firmware",
    "hardware/pinmap.json": REPO / "hardware" / "pinmap.json",
    "hardware/codes.json": REPO / "hardware" / "codes.json",
}


def source_files(folder: Path) -> dict[str, bytes]:
    """Every source file under `folder` (no caches, no compiled files), by relative path."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not is_junk(p.relative_to(REPO))
    }


def wheel_files(wheel: Path, prefix: str) -> dict[str, bytes]:
    """The wheel's files under `prefix`, by path relative to it."""
    with zipfile.ZipFile(wheel) as z:
        return {n[len(prefix):]: z.read(n) for n in z.namelist() if n.startswith(prefix) and not n.endswith("/")}


def assert_same_files(shipped: dict[str, bytes], source: dict[str, bytes], where: str) -> None:
    missing = sorted(set(source) - set(shipped))
    extra = sorted(set(shipped) - set(source))
    assert not missing, f"not shipped in {where}: {missing} (add them to package-data in pyproject.toml)"
    assert not extra, f"shipped in {where} but not in the source: {extra}"
    differ = sorted(name for name in source if shipped[name] != source[name])
    assert not differ, f"the copies in {where} differ from the source: {differ}"


@pytest.fixture(autouse=True)
def _no_override(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("UPREF_ROOT", raising=False)


# ---- the source tree ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(LINKS))
def test_the_package_links_to_the_one_source_instead_of_copying_it(name: str) -> None:
    link = PACKAGE / "resources" / name
    assert link.is_symlink(), f"{link} must be a symbolic link to {LINKS[name]}, not a copy"
    assert not os.path.isabs(os.readlink(link)), f"{link} must be relative, so that every clone works"
    assert link.resolve() == LINKS[name].resolve()


def test_from_the_checkout_the_firmware_pin_map_code_table_and_wire_format_are_the_checkouts() -> None:
    assert paths.firmware_dir().resolve() == REPO / "firmware"
    assert paths.pinmap_path().resolve() == REPO / "hardware" / "pinmap.json"
    assert paths.codes_path().resolve() == REPO / "hardware" / "codes.json"
    assert Path(str(protocol.wire.__file__)).resolve() == REPO / "firmware" / "lib" / "wire.py"
    # what deploy would put on a board: the checkout's firmware files, every one
    deployed = {src.resolve() for _, src in deploy.sources(paths.firmware_dir())}
    expected = {p.resolve() for p in (REPO / "firmware").rglob("*.py") if p.name != "manifest.py"}
    assert deployed == expected


def test_developer_tools_find_the_checkout_through_the_links() -> None:
    assert paths.repo_root() == REPO
    assert paths.hardware_dir() == REPO / "hardware"


def test_upref_root_points_upref_at_another_checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    other = tmp_path / "other"
    shutil.copytree(REPO / "firmware", other / "firmware")
    shutil.copytree(REPO / "hardware", other / "hardware")
    monkeypatch.setenv("UPREF_ROOT", str(other))
    assert paths.firmware_dir() == other / "firmware"
    assert paths.pinmap_path() == other / "hardware" / "pinmap.json"
    assert paths.codes_path() == other / "hardware" / "codes.json"
    assert resources.wire_path() == other / "firmware" / "lib" / "wire.py"
    assert paths.repo_root() == other
    assert all(src.is_relative_to(other) for _, src in deploy.sources(paths.firmware_dir()))


def test_an_upref_root_without_a_checkout_is_named_with_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("UPREF_ROOT", str(tmp_path))
    for find in (paths.firmware_dir, paths.pinmap_path, paths.codes_path, resources.wire_path):
        with pytest.raises(MissingDataError, match="UPREF_ROOT") as info:
            find()
        assert str(tmp_path) in str(info.value) and "unset it" in str(info.value)
    with pytest.raises(deploy.DeployError, match="point UPREF_ROOT at an upref checkout"):
        deploy.build()
    with pytest.raises(paths.CheckoutNeeded, match="has no firmware/ and hardware/"):
        paths.repo_root()
    assert hardware_tool.main(["check"]) == 2
    err = capsys.readouterr().err
    assert "python -m upref.hardware needs the upref source checkout" in err
    assert "Traceback" not in err


# ---- the wheel ---------------------------------------------------------------------------------


def test_the_wheel_ships_the_checkouts_firmware_byte_for_byte(wheel: Path) -> None:
    assert_same_files(
        wheel_files(wheel, "upref/resources/firmware/"),
        source_files(REPO / "firmware"),
        "the wheel's upref/resources/firmware/",
    )


def test_the_wheel_ships_the_pin_map_and_the_code_table_byte_for_byte(wheel: Path) -> None:
    source = {name: (REPO / "hardware" / name).read_bytes() for name in ("pinmap.json", "codes.json")}
    assert_same_files(
        wheel_files(wheel, "upref/resources/hardware/"), source, "the wheel's upref/resources/hardware/"
    )


def test_the_wheel_ships_every_games_catalogue(wheel: Path) -> None:
    games = PACKAGE / "games"
    catalogues = {
        f"{p.relative_to(games).as_posix()}": p.read_bytes()
        for p in sorted(games.glob("*/data/*"))
        if p.is_file() and not is_junk(p.relative_to(REPO))
    }
    assert catalogues, "no game catalogue found under host/upref/games/*/data/"
    shipped = {
        name: data for name, data in wheel_files(wheel, "upref/games/").items() if "/data/" in name
    }
    assert_same_files(shipped, catalogues, "the wheel's upref/games/*/data/")
