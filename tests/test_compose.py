"""compose.yaml cannot run here (no container runtime): it is held to what the tested image
and the two-node test show: the image's own commands, a migration before the nodes, two
nodes of a web and a worker sharing a volume at the image's state folder, health checks on
/readyz, and every setting several machines share."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]


def compose() -> dict[str, Any]:
    return dict(yaml.safe_load((ROOT / "compose.yaml").read_text()))


def test_two_nodes_of_a_web_and_a_worker_after_a_one_shot_migration() -> None:
    services = compose()["services"]
    assert set(services) == {"postgres", "redis", "migrate", "web-a", "worker-a", "web-b",
                             "worker-b"}
    assert services["migrate"]["command"] == ["flask", "--app", "wsgi", "db", "upgrade"]
    for node in ("a", "b"):
        web, worker = services[f"web-{node}"], services[f"worker-{node}"]
        assert "command" not in web  # the image's default: gunicorn
        assert worker["command"] == ["python", "-m", "jobs.worker"]
        assert web["volumes"] == worker["volumes"] == [f"node-{node}:/var/lib/pass-service"]
        for service in (web, worker):
            assert service["depends_on"]["migrate"] == {
                "condition": "service_completed_successfully"}
        assert "/readyz" in " ".join(web["healthcheck"]["test"])


def test_the_commands_and_paths_are_the_images() -> None:
    containerfile = (ROOT / "Containerfile").read_text()
    assert "INSTANCE_PATH=/var/lib/pass-service/instance" in containerfile
    assert re.search(r"^CMD \[\"gunicorn\", \"wsgi:app\"\]$", containerfile, re.M)
    for documented in ("flask --app wsgi db upgrade", "python -m jobs.worker",
                       "flask --app wsgi demo init"):
        assert documented in containerfile


def test_every_node_gets_the_settings_several_machines_share() -> None:
    settings = compose()["x-settings"]
    for name in ("APP_ENV", "DATABASE_URL", "REDIS_URL", "BASE_URL", "SECRET_KEY",
                 "ENCRYPTION_KEYS"):
        assert name in settings
    assert settings["APP_ENV"] == "production"
    for service in ("migrate", "web-a", "worker-a", "web-b", "worker-b"):
        assert compose()["services"][service]["environment"] == settings
