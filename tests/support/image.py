"""The container image, built and run on a machine where containers cannot start
(shared/containers.md): a Debian base made with `mmdebstrap` and imported with podman,
`podman build --isolation chroot`, then the image's root file system mounted and a command
run inside it with `chroot`, in new mount and PID namespaces, as the image's user, in its
working directory, with its environment plus the test's settings: what a container runtime
would do with the image's config, minus its isolation.

A state folder of the machine is mounted at the image's `/var/lib/pass-service` (its
INSTANCE_PATH's parent), as a volume would be: the image's own file system stays read-only.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.support.gunicorn import ROOT
from tests.support.services import missing

BASE = "docker.io/library/debian:bookworm-slim"
TAG = "localhost/pass-service:test"
STATE = "/var/lib/pass-service"
CERTS = "/etc/ssl/certs/ca-certificates.crt"

# $0 root, $1 state folder, $2 user, $3 working folder, then `env` arguments and the command.
_ENTER = ('R=$0; S=$1; U=$2; W=$3; shift 3; mount --bind /dev "$R/dev" && '
          'mount -t proc proc "$R/proc" && mount -t tmpfs tmpfs "$R/tmp" && '
          f'mount --bind "$S" "$R{STATE}" && '
          'exec chroot --userspec="$U" "$R" /usr/bin/env -i -C "$W" "$@"')


def require_tools() -> None:
    """Skip (fail under CI=true) without podman, mmdebstrap, unshare or root."""
    for tool in ("podman", "mmdebstrap", "unshare", "chroot"):
        if not shutil.which(tool):
            missing(tool)
    if os.geteuid() != 0:
        message = "building and entering the image needs root (chroot, mounts)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)


def _run(*argv: str, timeout: float = 900) -> str:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(argv[:3])}...:\n{done.stdout[-3000:]}\n" \
                                 f"{done.stderr[-3000:]}"
    return done.stdout


def build() -> dict[str, float]:
    """The base (when podman lacks it) and the image; the seconds each took."""
    seconds: dict[str, float] = {}
    started = time.monotonic()
    if subprocess.run(["podman", "image", "exists", BASE]).returncode != 0:
        with tempfile.TemporaryDirectory() as tmp:
            tar = f"{tmp}/rootfs.tar"
            _run("mmdebstrap", "--quiet", "--variant=apt", "--include=ca-certificates",
                 "bookworm", tar)
            _run("podman", "import", tar, BASE)
        seconds["base"] = time.monotonic() - started
    started = time.monotonic()
    lend = ["-v", f"{CERTS}:{CERTS}:ro"] if Path(CERTS).exists() else []
    before = _image_id()
    _run("podman", "build", "--isolation", "chroot", "--network", "host", *lend,
         "-t", TAG, str(ROOT))
    seconds["image"] = time.monotonic() - started
    if before and before != _image_id():  # the last run's image, now without a name
        subprocess.run(["podman", "rmi", before], capture_output=True)
    return seconds


def _image_id() -> str:
    found = subprocess.run(["podman", "image", "inspect", "--format", "{{.Id}}", TAG],
                           capture_output=True, text=True)
    return found.stdout.strip() if found.returncode == 0 else ""


@dataclass
class Image:
    """The built image, mounted; `state` is the folder mounted at its STATE."""

    state: Path
    root: str = ""
    config: dict[str, Any] = field(default_factory=dict)
    running: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def mount(self) -> Image:
        self.root = _run("podman", "image", "mount", TAG).strip()
        self.config = json.loads(_run("podman", "image", "inspect", TAG))[0]["Config"]
        (self.state / "instance").mkdir(parents=True, exist_ok=True)
        uid, gid = (int(n) for n in self.user.split(":"))
        for path in (self.state, self.state / "instance"):
            os.chown(path, uid, gid)
        return self

    @property
    def user(self) -> str:
        return str(self.config["User"])

    def _argv(self, argv: list[str], env: dict[str, str]) -> list[str]:
        settings = [*self.config.get("Env", []), *(f"{k}={v}" for k, v in env.items())]
        return ["unshare", "--mount", "--pid", "--fork", "sh", "-c",
                _ENTER, self.root, str(self.state), self.user,
                self.config.get("WorkingDir") or "/", *settings, *argv]

    def run(self, argv: list[str], env: dict[str, str], timeout: float = 120
            ) -> subprocess.CompletedProcess[str]:
        """A command inside the image, to its end."""
        return subprocess.run(self._argv(argv, env), capture_output=True, text=True,
                              timeout=timeout)

    def start(self, argv: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
        """A command inside the image, left running (`stop_all` ends it)."""
        with log.open("ab") as out:
            process = subprocess.Popen(self._argv(argv, env), stdout=out, stderr=out,
                                       start_new_session=True)
        self.running.append(process)
        return process

    def stop_all(self) -> None:
        for process in self.running:  # unshare and the command: one process group
            os.killpg(process.pid, signal.SIGTERM)
        for process in self.running:
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        self.running.clear()

    def unmount(self) -> None:
        self.stop_all()
        if self.root:
            subprocess.run(["podman", "image", "unmount", TAG], capture_output=True)
