"""README excerpts of the golden reports, kept real: `<!-- excerpt FILE A-B -->` before a fenced block means the
block holds lines A to B of FILE. `python tests/excerpts.py` refills every such block (`make reports` runs it
after regenerating reports/); tests/test_goldens.py fails when one is stale."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
EXCERPT = re.compile(r"<!-- excerpt (\S+) (\d+)-(\d+) -->\n```(\w*)\n(.*?)```", re.S)


def refreshed(readme: str) -> str:
    def fill(match: re.Match[str]) -> str:
        name, first, last, language = match.group(1), int(match.group(2)), int(match.group(3)), match.group(4)
        lines = (ROOT / name).read_text(encoding="utf-8").splitlines()[first - 1:last]
        body = "".join(f"{line}\n" for line in lines)
        return f"<!-- excerpt {name} {first}-{last} -->\n```{language}\n{body}```"

    return EXCERPT.sub(fill, readme)


def excerpts(readme: str) -> list[str]:
    return [match.group(1) for match in EXCERPT.finditer(readme)]


if __name__ == "__main__":
    README.write_text(refreshed(README.read_text(encoding="utf-8")), encoding="utf-8")
