"""What `make flash` checks before it touches a board: esptool's own image checks on the
bootloader and applications inside the merged binary, the chip they are built for, the SHA-256
recorded in the cache or pinned by the user; and the download into the cache."""

from __future__ import annotations

import hashlib
import http.server
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from images import ESP32_S3, app_byte_offset, merged_image
from upref.commands import flash

NAME = f"ESP32_GENERIC-20260829-v{flash.MICROPYTHON_VERSION}.bin"


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "cache"
    monkeypatch.setenv("UPREF_CACHE_DIR", str(d))
    return d


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def test_a_good_image_passes_with_its_parts_named(tmp_path: Path) -> None:
    report = flash.verify_image(write(tmp_path / "ok.bin", merged_image()))
    assert report.parts[0].startswith("bootloader at flash 0x1000: ESP32")
    assert any(p.startswith("application 'factory' at flash 0x10000: ESP32") for p in report.parts)
    assert all("valid" in p for p in report.parts if p.startswith(("bootloader", "application")))
    assert report.app_version == "micropython v1.29.0"
    # esptool's own command agrees
    res = subprocess.run([sys.executable, "-m", "esptool", "image-info", str(tmp_path / "ok.bin")],
                         capture_output=True, text=True, timeout=60)
    assert "Checksum: 0x" in res.stdout and "(valid)" in res.stdout


def test_one_byte_changed_in_the_application_is_refused(tmp_path: Path) -> None:
    data = bytearray(merged_image())
    data[app_byte_offset()] ^= 0x01
    with pytest.raises(flash.FlashError, match=r"application 'factory' at flash 0x10000 is damaged: its checksum"):
        flash.verify_image(write(tmp_path / "bad.bin", bytes(data)))


def test_a_changed_digest_is_refused(tmp_path: Path) -> None:
    data = bytearray(merged_image())
    data[-1] ^= 0x80  # the application's appended SHA-256
    with pytest.raises(flash.FlashError, match="is damaged: its SHA-256 digest"):
        flash.verify_image(write(tmp_path / "bad.bin", bytes(data)))


def test_an_image_for_another_chip_is_refused(tmp_path: Path) -> None:
    with pytest.raises(flash.FlashError, match=r"built for ESP32-S3 \(chip id 9\), not the classic ESP32"):
        flash.verify_image(write(tmp_path / "s3.bin", merged_image(chip_id=ESP32_S3)))


def test_something_else_is_not_an_image(tmp_path: Path) -> None:
    with pytest.raises(flash.FlashError, match="not an ESP image"):
        flash.verify_image(write(tmp_path / "x.bin", b"PK\x03\x04" + b"\x00" * 100))


def test_a_pinned_sha256_must_match(tmp_path: Path) -> None:
    img = write(tmp_path / "ok.bin", merged_image())
    digest = hashlib.sha256(img.read_bytes()).hexdigest()
    assert flash.resolve_image(img, digest.upper(), lambda s: None) == (img, digest)
    with pytest.raises(flash.FlashError, match="not the pinned MICROPYTHON_SHA256=0{64}: refusing"):
        flash.resolve_image(img, "0" * 64, lambda s: None)
    with pytest.raises(flash.FlashError, match="64 hexadecimal digits"):
        flash.resolve_image(img, "abc", lambda s: None)


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, object]]:
    """A local stand-in for micropython.org: the download page and the image."""
    image = merged_image()
    hits: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the stdlib's name
            hits.append(self.path)
            if self.path == "/download/ESP32_GENERIC/":
                body = (f'<a href="/resources/firmware/{NAME[:-4]}.app-bin">app</a>'
                        f'<a href="/resources/firmware/{NAME}">{NAME}</a>').encode()
            elif self.path == f"/resources/firmware/{NAME}":
                body = image
            else:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    monkeypatch.setenv("UPREF_MICROPYTHON_PAGE", f"http://127.0.0.1:{srv.server_address[1]}/download/ESP32_GENERIC/")
    yield {"image": image, "hits": hits}
    srv.shutdown()
    srv.server_close()


def test_first_download_records_the_sha256_and_later_uses_check_it(site: dict[str, object], _cache: Path) -> None:
    said: list[str] = []
    path, digest = flash.resolve_image(None, None, said.append)
    assert path == _cache / NAME and path.read_bytes() == site["image"]
    assert digest == hashlib.sha256(path.read_bytes()).hexdigest()
    assert (_cache / (NAME + ".sha256")).read_text() == f"{digest}  {NAME}\n"
    assert any("recorded" in s for s in said)
    hits = site["hits"]
    assert isinstance(hits, list) and len(hits) == 2
    said.clear()
    assert flash.resolve_image(None, None, said.append) == (path, digest)  # from the cache
    assert len(hits) == 2 and "as recorded" in said[0]
    data = bytearray(path.read_bytes())
    data[100] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises(flash.FlashError, match="was recorded when it was stored .*: the file has changed since"):
        flash.resolve_image(None, None, said.append)


def test_a_download_that_does_not_match_the_pin_is_not_kept(site: dict[str, object], _cache: Path) -> None:
    with pytest.raises(flash.FlashError, match="not the pinned MICROPYTHON_SHA256"):
        flash.resolve_image(None, "1" * 64, lambda s: None)
    assert not list(_cache.glob("ESP32_GENERIC*"))


def test_offline_without_an_image_says_what_to_download_and_where(_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UPREF_MICROPYTHON_PAGE", "http://127.0.0.1:9/download/ESP32_GENERIC/")
    with pytest.raises(flash.FlashError) as e:
        flash.resolve_image(None, None, lambda s: None)
    text = str(e.value)
    assert f"ESP32_GENERIC-<date>-v{flash.MICROPYTHON_VERSION}.bin" in text
    assert "https://micropython.org/download/ESP32_GENERIC/" in text
    assert str(_cache) in text and "FIRMWARE=" in text


def test_an_image_put_in_the_cache_by_hand_is_recorded_on_first_use(_cache: Path) -> None:
    _cache.mkdir(parents=True)
    img = write(_cache / NAME, merged_image())
    said: list[str] = []
    path, digest = flash.resolve_image(None, None, said.append)
    assert path == img and flash.read_record(img) == digest and "by hand" in said[0]


def test_esptool_failures_are_explained() -> None:
    assert "Hold the BOOT button, press and release EN" in flash.explain(
        "A fatal error occurred: Failed to connect to ESP32: Wrong boot mode detected (0x13)! "
        "The chip needs to be in download mode.")
    assert "not in download mode" in flash.explain("Failed to connect to ESP32: No serial data received.")
    assert "dialout" in flash.explain("could not open port /dev/ttyUSB0: [Errno 13] Permission denied")
