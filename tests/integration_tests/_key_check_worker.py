"""One process of the key-check race: wait for the start time, then write with its own key.

    python _key_check_worker.py STORE NAME KEY START_AT

STORE is a folder (FileSystemStore) or a URL (`sqlite:///...`, `postgresql://...`). Prints
`written` or `refused` (the key check named another key).
"""

from __future__ import annotations

import sys
import time

from langchain_contextchef import Memory
from langchain_contextchef.encryption import DecryptionError, EncryptedStore
from langchain_contextchef.store import FileSystemStore, is_store_url, open_store_url


def main(location: str, name: str, key: str, start_at: float) -> None:
    store = open_store_url(location) if is_store_url(location) else FileSystemStore(location)
    memory = Memory(EncryptedStore(store, key), scope=(name,))
    time.sleep(max(0.0, start_at - time.time()))
    try:
        memory.set("tone", f"written by {name}")
        print("written")
    except DecryptionError:
        print("refused")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]))
