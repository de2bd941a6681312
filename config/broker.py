"""The embedded filesystem broker, with every message whole before a worker can see it.

kombu's filesystem transport writes a message in place, under the name a worker looks for: a
worker polling the folder can move the file away and read it before the write lands, find it
empty, and die ("Unrecoverable error: JSONDecodeError('Expecting value...')"), which stops
``manage.py serve`` with it. Here a message is written under a name no worker reads, then
renamed into place, which is atomic within one folder.
"""

from __future__ import annotations

import os
import uuid
from time import monotonic

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps

PARTIAL = ".part"
"""The suffix of a message still being written: a worker reads only names ending ".msg"."""


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        """Put ``payload`` onto ``queue``: written whole, then renamed into place."""
        filename = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        path = os.path.join(self.data_folder_out, filename)
        try:
            with open(path + PARTIAL, "wb") as f:
                f.write(str_to_bytes(dumps(payload)))
            os.replace(path + PARTIAL, path)
        except OSError as exc:
            raise ChannelError(f"Cannot add file {path!r} to directory") from exc


class Transport(filesystem.Transport):
    Channel = Channel
