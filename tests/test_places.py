"""Baselines and scoped ignores written by an earlier specdiff keep matching: locations and fingerprints are
computed from each place's structure, and a change to how places are stored or shown must not strand the lists
users have checked in.

The files in tests/places/ were written by specdiff at commit d03bdff (before places were structured) for the
demo pair and the small test pairs: a baseline of the grouped findings (`specdiff baseline`), and three
configurations with one scoped ignore per finding: by its location as reports wrote it, by its long location
(full names), and by a glob over the first half of the location.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest

from specdiff.config import load_config, read_baseline
from specdiff.load import Document, load
from specdiff.notation import where
from specdiff.pipeline import run

ROOT = Path(__file__).resolve().parents[1]
PLACES = ROOT / "tests" / "places"
PAIRS = {"frobber": ("corpora/demo/frobber-v6.yaml", "corpora/demo/frobber-v7.yaml"),
         "frob": ("tests/specs/frob-old.yaml", "tests/specs/frob-new.yaml"),
         "hostile": ("tests/specs/hostile-old.yaml", "tests/specs/hostile-new.yaml")}
#: a small pair with a place of each shape outside the demo's: a response header, a request body's field, an
#: operation's security, a security scheme, the document root, its info and a path item
PLACES_PAIR = ("tests/specs/places-old.yaml", "tests/specs/places-new.yaml")
TODAY = date(2026, 11, 25)  # the day the files were written: nothing in them expires


def _pair(name: str) -> tuple[Document, Document]:
    old, new = PAIRS[name]
    return load(str(ROOT / old)), load(str(ROOT / new))


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_an_earlier_baseline_accepts_every_finding_and_every_entry_is_used(name: str) -> None:
    old, new = _pair(name)
    before = run(old, new, today=TODAY)
    assert before.findings, "the pair must have findings for the baseline to accept"
    config = load_config(PLACES / "empty.yaml")
    config = replace(config, baseline=read_baseline(PLACES / f"{name}.baseline"))
    after = run(old, new, config=config, today=TODAY)
    assert [(f.rule, where(f.change.context)) for f in after.findings] == []
    assert [note for note in after.notes if "unused" in note] == []


@pytest.mark.parametrize("kind", ["labels", "long-labels", "globs"])
@pytest.mark.parametrize("name", sorted(PAIRS))
def test_earlier_scoped_ignores_each_still_match_a_finding(name: str, kind: str) -> None:
    old, new = _pair(name)
    config = load_config(PLACES / f"{name}.{kind}.yaml")
    assert config.ignores
    after = run(old, new, config=config, today=TODAY, grouped=False)
    assert [note for note in after.notes if "unused" in note] == []
    ignored = {entry.rule for entry in config.ignores}
    assert [(f.rule, where(f.change.context)) for f in after.findings if f.rule in ignored
            and where(f.change.context)] == []


#: fingerprints specdiff wrote before places were stored as data alone (method, route, part and field steps, no
#: label text), by (rule, pointer): a place of every shape, each of which a baseline may list
PINNED = {
    "frobber": {
        ("response.status-removed",
         "/paths/~1apis~1frobs.example.com~1v6~1namespaces~1{namespace}~1frobbers~1{name}/delete/responses/202"):
            "b65b9541a89a9e8f",
        ("parameter.became-required",
         "/paths/~1apis~1frobs.example.com~1v6~1namespaces~1{namespace}~1frobbers/get/parameters/0/schema"):
            "0d9cf3f419049d32",
        ("request.media-type-removed", "/paths/~1apis~1frobs.example.com~1v6~1namespaces~1{namespace}~1frobbers~1"
         "{name}/patch/requestBody/content/application~1json-patch+json/schema"): "df6097653681d150",
        ("operation.removed",
         "/paths/~1apis~1frobs.example.com~1v6~1namespaces~1{namespace}~1frobbers~1{name}~1legacyfrob/post"):
            "c9d4a1f1f2b7569e",
        ("kubernetes.validation.rule-added",
         "/components/schemas/com.example.frobs.v6.FrobberSpec/x-kubernetes-validations/0"): "157fd082fa1edf72",
        # (now a member of the required property added in the same edit of Frobber: baselines match members)
        ("member schema.property.became-optional", "/components/schemas/com.example.frobs.v6.FrobberSpec/required"):
            "d5a4c4192beb4d20",
        ("info.version-changed", "/info/version"): "1a67ac0d847096e6",
        ("group-version.added", "/paths/~1apis~1frobs.example.com~1v7beta1~1namespaces~1{namespace}~1frobbers"):
            "df35972781d39afb",
    },
    "places": {
        ("schema.type-changed", "/paths/~1frobs/get/responses/200/headers/X-Total/schema"): "3a49495f63ae5dbe",
        ("schema.constraint-tightened",
         "/paths/~1frobs/post/requestBody/content/application~1json/schema/properties/name/maxLength"):
            "df885c211b23aa39",
        ("security.alternative-added", "/paths/~1frobs/get/security/0"): "b35cffb6db4fec9a",
        ("security.scheme.http-scheme-changed", "/components/securitySchemes/basic/scheme"): "70bbe3ebca469a16",
        # (vendor extensions: metadata since extension.changed claimed them, a new rule and so a new fingerprint)
        ("extension.changed", "/x-owner"): "42c296fdcdf29f9a",
        ("extension.changed", "/info/x-audience"): "ca82b6581449e175",
        ("extension.changed", "/paths/~1frobs/x-rate"): "e13a7d9b344945e1",
        ("schema.constraint-tightened", "/components/schemas/Frob/properties/name/maxLength"): "ed1ec286bd6b7e0f",
        # a group (the same parameter added to two operations) and its members
        ("parameter.optional-added", "/paths/~1frobs/get/parameters/1/schema"): "083101316c108533",
        ("member parameter.optional-added", "/paths/~1frobs/get/parameters/1/schema"): "874ec3c964598795",
        ("member parameter.optional-added", "/paths/~1frobs/post/parameters/0/schema"): "d7f087429ab69720",
    },
}


@pytest.mark.parametrize("name", sorted(PINNED))
def test_fingerprints_are_the_ones_earlier_versions_wrote(name: str) -> None:
    old, new = (load(str(ROOT / path)) for path in PAIRS.get(name, PLACES_PAIR))
    report = run(old, new, today=TODAY)
    found = {(f.rule, f.change.pointer): f.fingerprint for f in report.findings}
    found |= {(f"member {m.rule}", m.change.pointer): m.fingerprint for f in report.findings for m in f.members}
    assert {key: found.get(key) for key in PINNED[name]} == PINNED[name]
