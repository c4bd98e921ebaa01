"""A small reader for the repository's Dockerfile and .dockerignore, for the deploy tests.

It knows just enough of the format for these tests: comments, line
continuations, stages, exec-form (JSON) and shell-form arguments, COPY
sources and destinations, and Docker's ignore-file matching.
"""

from __future__ import annotations

import json
import posixpath
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath


@dataclass
class Instruction:
    keyword: str  # upper case: FROM, RUN, COPY, ...
    args: str  # the rest of the (joined) instruction, stripped
    line: int  # 1-based line where it starts

    def exec_form(self) -> list[str] | None:
        """The arguments as a list when written in JSON (exec) form, else None."""
        text = self.args
        if self.keyword == "HEALTHCHECK":
            # Drop the options; keep what follows CMD.
            m = re.search(r"\bCMD\s+(.*)$", text, re.S)
            if not m:
                return None
            text = m.group(1)
        text = text.strip()
        if not text.startswith("["):
            return None
        value = json.loads(text)
        if not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
            raise ValueError(f"line {self.line}: exec form must be a list of strings")
        return value

    def options(self) -> dict[str, str]:
        """--name=value options at the start of the arguments (COPY --from=..., ...)."""
        opts: dict[str, str] = {}
        for word in self.args.split():
            if not word.startswith("--"):
                break
            name, _, value = word[2:].partition("=")
            opts[name] = value
        return opts

    def words(self) -> list[str]:
        """Shell-form arguments split like a shell would (options included)."""
        return shlex.split(self.args, comments=False)


@dataclass
class Stage:
    base: str
    name: str | None
    instructions: list[Instruction] = field(default_factory=list)

    def all(self, keyword: str) -> list[Instruction]:
        return [i for i in self.instructions if i.keyword == keyword]

    def last(self, keyword: str) -> Instruction | None:
        found = self.all(keyword)
        return found[-1] if found else None

    def workdir(self) -> str:
        """The stage's final working directory ("/" when none is set)."""
        current = "/"
        for ins in self.all("WORKDIR"):
            current = posixpath.normpath(posixpath.join(current, ins.args.strip()))
        return current


@dataclass
class Dockerfile:
    instructions: list[Instruction]
    stages: list[Stage]

    @property
    def final(self) -> Stage:
        return self.stages[-1]

    def stage(self, name: str) -> Stage:
        for st in self.stages:
            if st.name == name:
                return st
        raise KeyError(name)


def parse(path: Path) -> Dockerfile:
    instructions: list[Instruction] = []
    pending: list[str] = []
    start = 0
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        stripped = raw.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if pending and stripped.startswith("#"):
            continue  # comment lines inside a continued instruction are dropped
        if not pending:
            start = number
        if stripped.endswith("\\"):
            pending.append(stripped[:-1])
            continue
        pending.append(stripped)
        text = " ".join(part.strip() for part in pending).strip()
        pending = []
        keyword, _, rest = text.partition(" ")
        instructions.append(Instruction(keyword.upper(), rest.strip(), start))
    if pending:
        raise ValueError(f"{path}: the last instruction ends with a line continuation")

    stages: list[Stage] = []
    for ins in instructions:
        if ins.keyword == "FROM":
            words = [w for w in ins.args.split() if not w.startswith("--")]
            name = words[2] if len(words) >= 3 and words[1].upper() == "AS" else None
            stages.append(Stage(base=words[0], name=name))
        elif ins.keyword in ("ARG",) and not stages:
            continue
        else:
            if not stages:
                raise ValueError(f"{path}:{ins.line}: {ins.keyword} before the first FROM")
            stages[-1].instructions.append(ins)
    return Dockerfile(instructions, stages)


def copy_sources(ins: Instruction) -> tuple[list[str], str]:
    """(sources, destination) of a COPY/ADD instruction, options removed."""
    words = ins.args.split()
    while words and words[0].startswith("--"):
        words.pop(0)
    body = " ".join(words)
    value = json.loads(body) if body.startswith("[") else shlex.split(body)
    return value[:-1], value[-1]


def image_path_to_repo(df: Dockerfile, image_path: str, root: Path) -> Path | None:
    """The file in the build context that the final stage copied to image_path, if any.

    Follows the final stage's COPY instructions from the build context (not
    --from=...), resolving relative destinations against the WORKDIR in
    force at that point.
    """
    target = PurePosixPath(image_path)
    workdir = "/"
    found: Path | None = None
    for ins in df.final.instructions:
        if ins.keyword == "WORKDIR":
            workdir = posixpath.normpath(posixpath.join(workdir, ins.args.strip()))
            continue
        if ins.keyword != "COPY" or "from" in ins.options():
            continue
        sources, dest = copy_sources(ins)
        dest_dir = dest.endswith("/") or len(sources) > 1
        dest_path = PurePosixPath(posixpath.normpath(posixpath.join(workdir, dest)))
        for src in sources:
            src_path = root / src
            if src_path.is_dir():
                # COPY dir dest: the directory's contents land in dest.
                try:
                    rel = target.relative_to(dest_path)
                except ValueError:
                    continue
                candidate = src_path / rel
            else:
                landed = dest_path / src_path.name if dest_dir else dest_path
                if landed != target:
                    continue
                candidate = src_path
            if candidate.exists():
                found = candidate
    return found


# --- .dockerignore ---------------------------------------------------------


def _pattern_regex(pattern: str) -> re.Pattern[str]:
    out = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**", i):
            i += 2
            if pattern.startswith("/", i):
                out.append("(?:.*/)?")
                i += 1
            else:
                out.append(".*")
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            j = pattern.find("]", i)
            if j == -1:
                out.append(re.escape(c))
            else:
                out.append(pattern[i : j + 1].replace("\\", "\\\\"))
                i = j
        else:
            out.append(re.escape(c))
        i += 1
    return re.compile("".join(out) + r"\Z")


def read_dockerignore(path: Path) -> list[tuple[bool, re.Pattern[str]]]:
    """(negated, regex) per pattern, in file order, cleaned as Docker cleans them."""
    rules = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        negated = line.startswith("!")
        if negated:
            line = line[1:].strip()
        line = posixpath.normpath(line.lstrip("/"))
        rules.append((negated, _pattern_regex(line)))
    return rules


def ignored(rules: list[tuple[bool, re.Pattern[str]]], rel_path: str) -> bool:
    """Whether Docker leaves rel_path (relative to the context) out of the build context.

    Like Docker's matcher: a pattern matches a path or any of its parent
    directories; the last matching pattern decides.
    """
    parts = PurePosixPath(rel_path).parts
    prefixes = ["/".join(parts[: n + 1]) for n in range(len(parts))]
    result = False
    for negated, regex in rules:
        if any(regex.match(p) for p in prefixes):
            result = not negated
    return result
