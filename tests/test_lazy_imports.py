"""A run imports what its command and inputs use, when they use them: start-up is most of a small comparison's
time (docs/performance.md). Each check runs in a fresh interpreter, since this one has imported everything."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
#: libraries a run loads only for an input or a format that needs them
OPTIONAL = ("networkx", "yaml", "deepdiff", "tomllib", "jsonpatch", "asyncio", "difflib", "fractions", "decimal", "re2",
            "email", "http")  # (email.utils and the HTTP client: an HTTP-date, a remote or file: URI)


def _imported_after(code: str, cwd: Path) -> set[str]:
    """The top-level modules (and specdiff's report modules, policy stage, configuration and commands) loaded
    once `code` has run."""
    probe = (f"import sys\n{code}\n"
             "print(' '.join(sorted({m.split('.')[0] for m in sys.modules} | "
             "{m for m in sys.modules if m.startswith(('specdiff.report', 'specdiff.policy', 'specdiff.cli', "
             "'specdiff.config', 'specdiff.graph.selection', 'specdiff.diff.servers', "
             "'specdiff.diff.compositions'))})))")
    done = subprocess.run([sys.executable, "-c", probe], cwd=cwd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return set(done.stdout.split())


def _compare(old: Path, new: Path, *options: str, discover: bool = False) -> str:
    """A comparison with no configuration, or (`discover`) with whatever configuration it finds."""
    arguments = [str(old), str(new), *options, *([] if discover else ["--no-config"])]
    return ("from specdiff.cli import main\n"
            f"try:\n    main({arguments!r})\n"
            "except SystemExit:\n    pass")


def _json_pair(folder: Path) -> tuple[Path, Path]:
    paths = []
    for side in ("old", "new"):
        data = yaml.safe_load((ROOT / "tests" / "specs" / f"frob-{side}.yaml").read_text(encoding="utf-8"))
        path = folder / f"{side}.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        paths.append(path)
    return paths[0], paths[1]


def test_importing_the_command_line_loads_no_optional_library(tmp_path: Path) -> None:
    loaded = _imported_after("import specdiff.cli", tmp_path)
    assert [name for name in OPTIONAL if name in loaded] == []
    assert "hashlib" not in loaded  # OpenSSL, for fingerprints
    assert sorted(m for m in loaded if m.startswith("specdiff.report")) == []
    assert "specdiff.cli.commands" not in loaded  # the commands other than compare: made when one is named


def test_a_json_pair_loads_no_yaml_and_only_the_report_it_renders(tmp_path: Path) -> None:
    old, new = _json_pair(tmp_path)
    loaded = _imported_after(_compare(old, new), tmp_path)
    assert "specdiff" in loaded  # the comparison ran
    assert [name for name in OPTIONAL if name in loaded] == []
    assert "specdiff.policy" not in loaded  # no configuration: no levels, selection, ignores or baseline to apply
    assert [m for m in ("specdiff.config", "specdiff.graph.selection") if m in loaded] == []  # nor one to read
    assert "pathlib" not in loaded  # (with urllib and ipaddress): for folders, files a $ref names, git, a configuration
    assert "specdiff.cli.commands" not in loaded
    assert "specdiff.histories" not in loaded  # the records only `history` makes
    assert "string" not in loaded  # (its `Template` compiles a pattern): placeholders are read with `_string`
    # the differs of servers and of compositions: for a pair whose servers or unions differ
    assert [m for m in ("specdiff.diff.servers", "specdiff.diff.compositions") if m in loaded] == []
    assert sorted(m for m in loaded if m.startswith("specdiff.report.")) == ["specdiff.report.sections",
                                                                              "specdiff.report.text"]


def test_fingerprints_are_hashed_without_loading_openssl(tmp_path: Path) -> None:
    """hashlib loads OpenSSL (3 ms at each start) for the few kB of values a comparison fingerprints: the
    interpreter's own SHA-256 writes the same digests."""
    code = ("import hashlib as reference\nfrom specdiff.records import hashed\ndel sys.modules['hashlib']\n"
            "value = ['x' * 300]\nassert hashed(value) == reference.sha256(b'[\"' + b'x' * 300 + b'\"]')"
            ".hexdigest()[:16]\n")
    assert "hashlib" not in _imported_after(code, tmp_path)


def test_a_crds_inlined_copies_are_hashed_without_loading_openssl(tmp_path: Path) -> None:
    """Grouping names a change inside a CRD's inlined copy of a type by the copy's digest, hashed with the
    fingerprints' SHA-256, so a CRD comparison loads no OpenSSL either; the digest is hashlib's."""
    code = ("import hashlib as reference\nfrom specdiff.group import _digest\n"
            "from specdiff.records import spaced_text\ndel sys.modules['hashlib']\n"
            "schema = {'description': 'a field', 'properties': {'a': {'type': 'string'}}}\n"
            "text = spaced_text({'properties': schema['properties']})\n"
            "assert _digest(schema) == reference.sha256(text.encode()).hexdigest()[:16]\n")
    assert "hashlib" not in _imported_after(code, tmp_path)


def test_a_comparison_that_finds_no_configuration_file_loads_no_configuration_reader(tmp_path: Path) -> None:
    """The search for a configuration looks for files named like one; only when one is there is
    specdiff.config imported to read it (and the selection of operations only when something selects)."""
    from specdiff.config_search import candidates

    folder = tmp_path / "work"
    folder.mkdir()
    if next(candidates(str(folder)), None) is not None:
        pytest.skip("a folder above the temporary one holds a file named like a configuration")
    old, new = _json_pair(folder)
    loaded = _imported_after(_compare(old, new, discover=True), folder)
    assert "specdiff" in loaded
    assert [m for m in ("specdiff.config", "specdiff.graph.selection") if m in loaded] == []
    (folder / ".specdiff.yml").write_text("fail-on: dangerous\n", encoding="utf-8")
    assert "specdiff.config" in _imported_after(_compare(old, new, discover=True), folder)


def test_a_pyproject_of_another_tool_is_not_parsed_and_git_is_not_asked(tmp_path: Path) -> None:
    """Configuration discovery reads a pyproject.toml that cannot configure specdiff without tomllib, and
    asks git for the repository only about a found file that is a link out of its folder."""
    old, new = _json_pair(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'another-tool'\n", encoding="utf-8")
    loaded = _imported_after(_compare(old, new, discover=True), tmp_path)
    assert "specdiff" in loaded
    assert [name for name in ("tomllib", "subprocess", "pathlib") if name in loaded] == []


def test_a_yaml_pair_loads_yaml_and_a_json_report_loads_its_formatter(tmp_path: Path) -> None:
    specs = ROOT / "tests" / "specs"
    loaded = _imported_after(_compare(specs / "frob-old.yaml", specs / "frob-new.yaml", "--format", "json"),
                             tmp_path)
    assert "yaml" in loaded
    assert sorted(m for m in loaded if m.startswith("specdiff.report.")) == ["specdiff.report.json_envelope"]


def test_naming_another_command_loads_the_commands(tmp_path: Path) -> None:
    code = ("import contextlib, io\nfrom specdiff.cli import main\n"
            "try:\n    with contextlib.redirect_stdout(io.StringIO()):\n        main(['rules'])\n"
            "except SystemExit:\n    pass")
    loaded = _imported_after(code, tmp_path)
    assert "specdiff.cli.commands" in loaded


def _crd(rule: str) -> str:
    return f"""apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {{name: widgets.example.com}}
spec:
  group: example.com
  names: {{kind: Widget, listKind: WidgetList, plural: widgets, singular: widget}}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {{type: integer}}
            x-kubernetes-validations:
            - rule: {rule!r}
"""


def test_a_changed_cel_rule_is_parsed_without_loading_cel_pythons_evaluator(tmp_path: Path) -> None:
    """The parser comes from tables and cel-python's grammar file: its package, which imports the evaluator with
    pendulum and dateutil, is loaded only to evaluate rules (`specdiff manifests`)."""
    (tmp_path / "old.yaml").write_text(_crd("self.size > 0"), encoding="utf-8")
    (tmp_path / "new.yaml").write_text(_crd("self.size > 0 || self.size == -1"), encoding="utf-8")
    code = _compare(tmp_path / "old.yaml", tmp_path / "new.yaml", "--format", "json")
    loaded = _imported_after(f"import contextlib, io\nwith contextlib.redirect_stdout(io.StringIO()):\n"
                             f"{''.join('    ' + line + chr(10) for line in code.splitlines())}", tmp_path)
    assert "lark" in loaded  # the rule was parsed
    assert [name for name in ("celpy", "pendulum", "dateutil") if name in loaded] == []


def test_a_changed_list_in_an_extension_loads_no_deepdiff(tmp_path: Path) -> None:
    """Stripe's day-to-day pairs change lists of names (`x-expandableFields`): lists are aligned by specdiff
    itself, and deepdiff (56 ms to import) is loaded only for a mapping no family models that changed inside."""
    def spec(fields: list[str]) -> str:
        return json.dumps({"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {},
                           "components": {"schemas": {"Charge": {"type": "object", "x-expandableFields": fields}}}})

    (tmp_path / "old.json").write_text(spec(["customer", "invoice"]), encoding="utf-8")
    (tmp_path / "new.json").write_text(spec(["customer"]), encoding="utf-8")
    loaded = _imported_after(_compare(tmp_path / "old.json", tmp_path / "new.json"), tmp_path)
    assert "specdiff" in loaded and "deepdiff" not in loaded


def test_the_command_imports_its_command_line_with_the_collector_off(tmp_path: Path) -> None:
    """The installed `specdiff` starts at `specdiff.command`, which switches the cyclic collector off before the
    command line's imports run; `import specdiff` as a library leaves it on."""
    import tomllib

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert declared["specdiff"] == "specdiff.command:entry"
    watch = ("import gc, sys\n"
             "class Watch:\n"
             "    def find_spec(self, name, path=None, target=None):\n"
             "        if name == 'click':\n"
             "            print('collector', 'on' if gc.isenabled() else 'off')\n"
             "sys.meta_path.insert(0, Watch())\n"
             "import specdiff, specdiff.command\n"
             "print('library', 'on' if gc.isenabled() else 'off')\n"
             "sys.argv = ['specdiff', '--version']\n"
             "specdiff.command.entry()\n")
    done = subprocess.run([sys.executable, "-c", watch], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.stdout.splitlines()[:2] == ["library on", "collector off"], done.stderr
