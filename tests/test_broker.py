"""The embedded filesystem broker never shows a worker a message before it is written whole."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from kombu import Connection

from config.broker import PARTIAL


@pytest.fixture
def connection(tmp_path):
    folders = {name: tmp_path / name for name in ("queue", "control", "processed")}
    for folder in folders.values():
        folder.mkdir()
    options = {
        "data_folder_in": str(folders["queue"]),
        "data_folder_out": str(folders["queue"]),
        "control_folder": str(folders["control"]),
        "processed_folder": str(folders["processed"]),
    }
    with Connection("filesystem://", transport="config.broker:Transport",
                    transport_options=options) as conn:  # fmt: skip
        yield conn, folders["queue"]


def test_a_message_is_renamed_into_place_whole(connection, monkeypatch):
    import config.broker as broker

    conn, folder = connection
    renamed = []

    def replace(src, dst):
        # At the rename the message is whole, under a name no worker reads.
        assert src.endswith(PARTIAL) and not [p for p in folder.iterdir() if p.suffix == ".msg"]
        renamed.append(json.loads(Path(src).read_text(encoding="utf-8")))
        real_replace(src, dst)

    real_replace = broker.os.replace
    monkeypatch.setattr(broker.os, "replace", replace)
    queue = conn.SimpleQueue("battles")
    queue.put({"battle": 7})
    assert len(renamed) == 1 and not list(folder.glob(f"*{PARTIAL}"))
    assert queue.get(timeout=5).payload == {"battle": 7}
    queue.close()


def test_a_message_still_being_written_is_left_alone(connection):
    conn, folder = connection
    # (A queue of its own: kombu keeps the queues it has bound in one state per process.)
    queue = conn.SimpleQueue("odds")
    # What kombu's own transport leaves a worker to read mid-write: an empty file.
    (folder / f"1_half.odds.msg{PARTIAL}").write_bytes(b"")
    with pytest.raises(queue.Empty):
        queue.get(block=False)
    queue.put({"battle": 8})
    assert queue.get(timeout=5).payload == {"battle": 8}
    queue.close()
