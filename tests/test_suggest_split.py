"""A JSON Lines catalog read by several processes (:mod:`partpicker.suggest.split`) gives what
one process reading it all gives: the same kept parts in the same order, the same counts and
index of offered parts, the same problems with their line numbers, and the same answers."""

from __future__ import annotations

import dataclasses
import itertools
import json
import os
import pickle
import random
from pathlib import Path
from typing import Any

import msgspec
import pytest

from partpicker.catalog import read_catalog
from partpicker.catalog.checks import CURATION_ONLY
from partpicker.catalog.checks.interface import PART_CHECKS
from partpicker.catalog.load import spans_of
from partpicker.errors import InputError
from partpicker.suggest import split
from partpicker.suggest.answer import solve
from partpicker.suggest.reduce import Reducer, _read_split, streamed_catalog

from .conftest import fast_first
from .support.random_catalog import DAY, make
from .test_suggest_stream import RULES, SIZES, _everything, _request, as_jsonl

CHECKS = {cid: fn for cid, fn in PART_CHECKS.items() if cid not in CURATION_ONLY}


def _kept(catalog: Any) -> tuple[Any, ...]:
    """What a reduced catalog holds: its entries in order (the slim records, every field: a
    forked process hands over where a kept part's line is, and the record is made again
    from it), and what it knows of the rest."""
    red = catalog.reduction
    entries = tuple((cat, tuple(catalog.entries(cat))) for cat in sorted(red.index))
    index = tuple((role, tuple(map(tuple, red.index[role]))) for role in sorted(red.index))
    return entries, index, tuple(sorted(red.newest.items())), red.fields


@pytest.mark.parametrize("seed", fast_first(range(12), 1))
def test_split_reads_keep_what_one_read_keeps(seed: int, tmp_path: Path) -> None:
    rng = random.Random(90_000 + seed)
    path = as_jsonl(make(rng, SIZES), tmp_path / "random.jsonl", copies=3)
    for _ in range(2):
        request = _request(rng)
        one = streamed_catalog([path], RULES, request, jobs=1)
        assert one is not None
        for jobs in (2, 3, 5):
            many = streamed_catalog([path], RULES, request, jobs=jobs)
            assert many is not None
            assert _kept(many) == _kept(one)
        assert _everything(solve(many, RULES, request)) == _everything(solve(one, RULES, request))


def test_several_files_split_alike(tmp_path: Path) -> None:
    rng = random.Random(7)
    lines = as_jsonl(make(rng, SIZES), tmp_path / "all.jsonl", copies=3).read_text().splitlines(keepends=True)
    cut = len(lines) // 3
    files = [tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"]
    for f, part in zip(files, (lines[:cut], lines[cut : 2 * cut], lines[2 * cut :]), strict=True):
        f.write_text("".join(part))
    request = dataclasses.replace(_request(rng), budget=None)
    one = streamed_catalog(files, RULES, request, jobs=1)
    many = streamed_catalog(files, RULES, request, jobs=4)
    assert one is not None and many is not None
    assert _kept(many) == _kept(one)
    assert _everything(solve(many, RULES, request)) == _everything(solve(one, RULES, request))


def test_problems_keep_their_line_numbers(tmp_path: Path) -> None:
    """Warnings found by a later process name the lines one process would name."""
    path = as_jsonl(make(random.Random(8), SIZES), tmp_path / "c.jsonl", copies=2)
    raw = [json.loads(line) for line in path.read_text().splitlines()]
    for line in raw[1::7]:  # a recalled fact without its note is a warning of the evidence check
        line["notes"] = ""
        line["evidence"] = "recalled"
    path.write_text("".join(json.dumps(line) + "\n" for line in raw))
    request = _request(random.Random(8))
    serial = Reducer(RULES, request, DAY)
    _, expected = read_catalog([path], part_checks=CHECKS, keep=serial.take)
    assert expected, "the catalog should have problems to compare"
    for jobs in (2, 4):
        _, found, _ = _read_split([path], jobs, lambda wire: Reducer(RULES, request, DAY, wire=wire), CHECKS)
        assert found == expected


def test_a_bad_line_in_a_later_span_is_not_reduced(tmp_path: Path) -> None:
    path = as_jsonl(make(random.Random(3), SIZES), tmp_path / "c.jsonl", copies=2)
    with path.open("a") as out:
        out.write('{"category": "cpu", "id": "broken"}\n')
    assert streamed_catalog([path], RULES, _request(random.Random(3)), jobs=3) is None


def test_spans_cover_the_file_in_whole_lines(tmp_path: Path) -> None:
    rng = random.Random(11)
    path = tmp_path / "lines.jsonl"
    path.write_bytes(b"".join(b"x" * rng.randint(0, 300) + b"\n" for _ in range(500)) + b"no newline at the end")
    data = path.read_bytes()
    for parts in (1, 2, 3, 7, 64, 10_000):
        spans = spans_of(path, parts)
        assert spans[0].start == 0 and spans[-1].stop == len(data)
        assert all(a.stop == b.start for a, b in itertools.pairwise(spans))
        assert all(s.start == 0 or data[s.start - 1 : s.start] == b"\n" for s in spans)
        assert len(spans) <= parts
    assert spans_of(tmp_path / "lines.jsonl", 3)[0].stop > 0
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    assert [(s.start, s.stop) for s in spans_of(empty, 4)] == [(0, 0)]


def _parent_only(pid: int, value: int) -> int:
    if os.getpid() != pid:
        raise RuntimeError("fails in the forked process")
    return value


def test_a_failing_process_is_read_again_here() -> None:
    here = os.getpid()
    tasks = [lambda i=i: _parent_only(here, i) for i in range(4)]
    assert split.run(tasks) == [0, 1, 2, 3]
    unpicklable = [lambda: 1, lambda: lambda: 2]  # a result pickle cannot send
    found = split.run(unpicklable)
    assert found[0] == 1 and found[1]() == 2
    assert split.run([lambda: os.getpid(), lambda: os.getpid()])[1] != here  # the others do run elsewhere


def test_meanwhile_runs_here_while_the_others_read(tmp_path: Path) -> None:
    """``meanwhile`` runs once, in this process, after its own task and before it waits for the
    others (the command imports its solver then); with one task there is no wait to fill."""
    here, ran = os.getpid(), []
    beat = tmp_path / "beat"

    def first() -> str:
        return "first"

    def other() -> bool:
        import time

        time.sleep(0.3)  # still running when this process has done its own
        return beat.exists()

    def meanwhile() -> None:
        ran.append(os.getpid())
        beat.write_text("x")

    assert split.run([first, other], meanwhile) == ["first", True]
    assert ran == [here]
    assert split.run([first], meanwhile) == ["first"]
    assert ran == [here]
    rng = random.Random(11)
    path = tmp_path / "c.jsonl"
    as_jsonl(make(rng, SIZES), path)
    request = _request(rng)
    one = streamed_catalog([path], RULES, request, jobs=1, meanwhile=lambda: ran.append(-1))
    two = streamed_catalog([path], RULES, request, jobs=2, meanwhile=lambda: ran.append(os.getpid()))
    assert ran == [here, here]  # (not with one process: it read everything itself)
    assert one is not None and two is not None and _kept(one) == _kept(two)


def test_how_many_jobs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    small = tmp_path / "small.jsonl"
    small.write_text("{}\n")
    monkeypatch.delenv("PARTPICKER_JOBS", raising=False)
    assert split.jobs_for([small]) == 1  # too small to be worth a fork
    assert split.jobs_for([small], 3) == 3
    assert split.jobs_for([small], 99) == split.MAX_JOBS
    monkeypatch.setattr(split, "MIN_BYTES", 0)
    assert split.jobs_for([small]) == min(len(os.sched_getaffinity(0)), split.MAX_JOBS)
    monkeypatch.setenv("PARTPICKER_JOBS", "1")
    assert split.jobs_for([small]) == 1
    monkeypatch.setenv("PARTPICKER_JOBS", "")  # empty: as if unset
    assert split.jobs_for([small]) == min(len(os.sched_getaffinity(0)), split.MAX_JOBS)
    for wrong in ("x", "0", "-1", "2.5"):
        monkeypatch.setenv("PARTPICKER_JOBS", wrong)
        with pytest.raises(InputError, match="PARTPICKER_JOBS must be a number of processes"):
            split.jobs_for([small])
    monkeypatch.delattr(os, "fork")
    assert split.jobs_for([small], 4) == 1


def test_a_hand_over_as_messagepack_merges_as_one_by_records(tmp_path: Path) -> None:
    """What a forked process hands over gives its kept classes as MessagePack, not as
    objects to pickle; merged, their keys and slim records equal the ones it read (field by
    field: prices, slot maps, aliases), and so do those of a later merge into them."""
    rng = random.Random(21)
    path = as_jsonl(make(rng, SIZES), tmp_path / "c.jsonl", copies=3)
    request = dataclasses.replace(_request(rng), budget=None)
    read, read_as_wire = Reducer(RULES, request, DAY), Reducer(RULES, request, DAY, wire=True)
    read_catalog([path], part_checks=CHECKS, keep=read.take)
    read_catalog([path], part_checks=CHECKS, keep=read_as_wire.take)
    sent = pickle.loads(pickle.dumps(read_as_wire.state()))
    assert all(type(best) is bytes for best, *_ in sent["roles"].values())
    plain, received = Reducer(RULES, request, DAY), Reducer(RULES, request, DAY)
    plain.merge(read.state())
    received.merge(sent)
    assert sum(len(state.best) for state in plain.roles.values()) > 20
    for role in plain.roles:
        assert list(received.roles[role].best) == list(plain.roles[role].best)
        for key, group in plain.roles[role].best.items():
            theirs = received.roles[role].best[key]
            assert theirs == group
            for a, b in zip(theirs, group, strict=True):
                assert type(a[3]) is type(b[3]) and msgspec.structs.asdict(a[3]) == msgspec.structs.asdict(b[3])
    plain.merge(read.state())  # (a second share, its parts read after: classes merged, the cheaper kept)
    received.merge(sent)
    for role in plain.roles:
        assert received.roles[role].best == plain.roles[role].best


@pytest.mark.parametrize("seed", fast_first(range(6), 2))
def test_a_search_beside_another_answers_as_one_process(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The builds cheaper if unknowns hold, searched in a forked process while this one
    searches the builder's pick (as on a large catalog), are the ones one process finds.
    (The bundled catalog: its answers are proven, and often want a builder's pick.)"""
    from partpicker.catalog import load_catalog
    from partpicker.suggest import answer
    from partpicker.suggest.offer import Request

    monkeypatch.setattr(answer, "BESIDE", 0)  # (this catalog is small)
    forks = []

    class Counted(split.Forked[Any]):
        def __init__(self, task: Any) -> None:
            forks.append(task)
            super().__init__(task)

    monkeypatch.setattr(split, "Forked", Counted)
    rng = random.Random(96_004 + seed)
    for _ in range(4):
        gpus = rng.choice([2, 3, 4])
        request = Request(
            gpus=gpus,
            start_gpus=rng.randint(1, gpus),
            budget=rng.choice([None, 3000.0, 6000.0]),
            as_of=DAY.fromordinal(rng.randint(DAY.fromisoformat("2018-09-01").toordinal(), DAY.toordinal())),
            objective=rng.choice(["now", "full"]),
            top=rng.choice([1, 1, 2]),
        )
        answers = []
        for jobs in ("1", "2"):
            monkeypatch.setenv("PARTPICKER_JOBS", jobs)
            catalog = load_catalog()
            catalog.memo.clear()  # (the session's catalog: what an earlier search remembered goes)
            answers.append(_everything(solve(catalog, RULES, request)))
        assert answers[0] == answers[1]
    assert forks  # (a builder's pick was searched, so the other search went beside it)
