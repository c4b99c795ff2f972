"""Report files are written through an exclusively created temporary file with an unpredictable name, and never
replace a folder, FIFO or device; a symlink at the target is replaced, the file it points to is left alone.
Inputs that cannot be what they claim (a URL, a folder beside a file) get a message saying what to do."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from specdiff.cli import main


@pytest.fixture
def here(frob_folder: Path) -> Path:
    return frob_folder


def run(*args: str) -> tuple[int, str]:
    done = CliRunner().invoke(main, ["--no-config", *args])
    return done.exit_code, done.stderr


def test_a_symlink_at_the_target_is_replaced_and_its_file_left_alone(here: Path) -> None:
    victim = here / "victim.txt"
    victim.write_text("precious\n")
    os.symlink(victim, here / "report.txt")
    assert run("old.yaml", "new.yaml", "-o", "report.txt") == (1, "")
    assert victim.read_text() == "precious\n"
    assert not (here / "report.txt").is_symlink()
    assert (here / "report.txt").read_text().startswith("specdiff old.yaml -> new.yaml")
    (here / "out").mkdir()
    os.symlink(victim, here / "out" / "specdiff.json")
    assert run("old.yaml", "new.yaml", "--output-dir", "out", "--format", "json", "--format", "text") == (1, "")
    assert victim.read_text() == "precious\n" and not (here / "out" / "specdiff.json").is_symlink()
    assert sorted(p.name for p in (here / "out").iterdir()) == ["specdiff.json", "specdiff.txt"]  # no leftovers


def test_a_planted_link_at_the_old_predictable_temporary_name_gets_nothing(here: Path) -> None:
    victim = here / "victim.txt"
    victim.write_text("precious\n")
    for pid in range(os.getpid() - 2, os.getpid() + 3):
        os.symlink(victim, here / f".report.txt.{pid}.tmp")
    assert run("old.yaml", "new.yaml", "-o", "report.txt") == (1, "")
    assert victim.read_text() == "precious\n"
    assert (here / "report.txt").read_text().startswith("specdiff old.yaml")


@pytest.mark.parametrize("kind", ["directory", "FIFO"])
def test_a_folder_or_fifo_is_never_replaced(here: Path, kind: str) -> None:
    target = here / "report.txt"
    target.mkdir() if kind == "directory" else os.mkfifo(target)
    assert run("old.yaml", "new.yaml", "-o", "report.txt") == (
        2, f"specdiff: error: report.txt: cannot write the report: is a {kind}, not a file\n")
    assert target.is_dir() if kind == "directory" else target.is_fifo()
    assert sorted(p.name for p in here.iterdir()) == ["new.yaml", "old.yaml", "report.txt"]


def test_a_device_is_never_replaced(here: Path) -> None:
    assert run("old.yaml", "new.yaml", "-o", "/dev/null") == (
        2, "specdiff: error: /dev/null: cannot write the report: is a device, not a file\n")
    assert Path("/dev/null").is_char_device()


def test_the_report_is_readable_as_a_plain_file_would_be(here: Path) -> None:
    old = os.umask(0o022)
    try:
        run("old.yaml", "new.yaml", "-o", "report.txt")
    finally:
        os.umask(old)
    assert (here / "report.txt").stat().st_mode & 0o777 == 0o644


@pytest.mark.parametrize(("args", "message"), [
    (["https://example.com/old.yaml", "new.yaml"],
     "https://example.com/old.yaml: OLD is a URL; specdiff reads local files and git revisions: download it first "
     "(curl -fsSLo spec.yaml URL) and give the file"),
    (["old.yaml", "http://example.com/new.json"],
     "http://example.com/new.json: NEW is a URL; specdiff reads local files and git revisions: download it first "
     "(curl -fsSLo spec.yaml URL) and give the file"),
    (["old.yaml", "new.yaml", "--baseline", "https://example.com/b.txt"],
     "https://example.com/b.txt: --baseline is a URL; specdiff reads local files and git revisions: download it "
     "first (curl -fsSLo spec.yaml URL) and give the file"),
    (["old.yaml", "new.yaml", "-o", "s3://bucket/report.txt"],
     "s3://bucket/report.txt: --output is a URL; specdiff reads local files and git revisions: give a local path"),
])
def test_a_url_where_a_file_belongs_says_what_to_do(here: Path, args: list[str], message: str) -> None:
    assert run(*args) == (2, f"specdiff: error: {message}\n")


def test_a_folder_beside_a_file_says_what_to_do_when_it_cannot_be_read(here: Path) -> None:
    (here / "api").mkdir()
    (here / "api" / "notes.yaml").write_text("a: 1\n")
    assert run("api", "new.yaml") == (
        2, "specdiff: error: api/notes.yaml: not an OpenAPI 2.0/3.x document or a CustomResourceDefinition (no "
           "'swagger', 'openapi' or 'kind: CustomResourceDefinition') (OLD is a folder and NEW is a file: compare "
           "two files, or two folders of per-group documents)\n")
    (here / "empty").mkdir()
    assert run("old.yaml", "empty") == (
        2, "specdiff: error: empty: directory holds no .json or .yaml spec files (OLD is a file and NEW is a "
           "folder: compare two files, or two folders of per-group documents)\n")
