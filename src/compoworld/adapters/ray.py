"""Ray as the executor of long jobs: one actor per worker, each loading the catalog and world once.

:class:`RayExecutor` implements :class:`~compoworld.tasks.parallel.Executor`.
It starts a local Ray (``num_cpus`` = workers) unless given an address, or
unless ``RAY_ADDRESS`` names a running cluster. Each actor builds its worker
object once (a :class:`~compoworld.tasks.parallel.SynthWorker` loads the
catalog, world and graph) and serves items until the job ends; at most a few
items per actor are in flight, and results come back in item order. An actor
that dies (its node lost, its process killed) is replaced, and the items it held
are given to the others again, so every item's result arrives exactly once.

Ray is the ``ray`` extra; importing this module does not import Ray.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Generator, Iterable
from typing import Any

from compoworld.tasks.parallel import build_worker

__all__ = ["RayExecutor"]


class _Host:
    """What runs inside an actor: one worker object, built once."""

    def __init__(self, worker: str, init: dict[str, Any]) -> None:
        self.worker = build_worker(worker, init)

    def call(self, method: str, item: Any) -> Any:
        return getattr(self.worker, method)(item)

    def pid(self) -> int:
        return os.getpid()


class RayExecutor:
    """Runs workers as Ray actors.

    Args:
        address: A running cluster's address (``ray://host:10001`` or ``host:6379``); None starts a
            local Ray, or joins the cluster ``RAY_ADDRESS`` names.
        workers: Actors (one CPU each).
        in_flight: Items each actor holds at once (more hides the round trip; 2 is enough locally).

    Raises:
        RuntimeError: if Ray is not installed.
    """

    def __init__(self, *, address: str | None = None, workers: int = 2, in_flight: int = 2) -> None:
        try:
            import ray
        except ImportError as exc:
            raise RuntimeError("the ray executor needs Ray: pip install 'compoworld[ray]'") from exc
        if workers < 1 or in_flight < 1:
            raise ValueError("workers and in_flight must be at least 1")
        self._ray = ray
        self.workers = workers
        self.in_flight = in_flight
        self._owned = False
        if not ray.is_initialized():
            local = address is None and not os.environ.get("RAY_ADDRESS")
            # A local Ray gets exactly the CPUs the workers use; a cluster is joined as it is.
            extra: dict[str, Any] = {}
            if local:
                # Results are small (a task line each): a small object store keeps a local Ray light.
                extra = {"num_cpus": workers, "include_dashboard": False, "object_store_memory": 128 * 1024**2}
            ray.init(address=address, log_to_driver=False, configure_logging=False, **extra)
            self._owned = True
        self._actor_class = ray.remote(num_cpus=1, max_restarts=0, max_task_retries=0)(_Host)
        self.actors: list[Any] = []
        self.replaced = 0
        self._spec: tuple[str, str] | None = None

    def _start(self, worker: str, init: dict[str, Any]) -> Any:
        actor = self._actor_class.remote(worker, init)
        self.actors.append(actor)
        return actor

    def _host(self, worker: str, init: dict[str, Any]) -> None:
        """Have ``workers`` actors hosting this worker; actors of another job's worker are stopped first."""
        spec = (worker, repr(sorted(init.items())))
        if self._spec != spec:
            for old in self.actors:
                self._ray.kill(old)
            self.actors.clear()
            self._spec = spec
        while len(self.actors) < self.workers:
            self._start(worker, init)

    def warm(self, worker: str, init: dict[str, Any]) -> None:
        """Start the actors now and wait until each has built its worker (for timing the work alone)."""
        self._host(worker, init)
        self._ray.get([a.pid.remote() for a in self.actors])

    def imap(self, worker: str, init: dict[str, Any], method: str, items: Iterable[Any]) -> Generator[Any, None, None]:
        """See :meth:`compoworld.tasks.parallel.Executor.imap`; a dead actor's items are run again elsewhere."""
        ray = self._ray
        from ray.exceptions import ActorDiedError, ActorUnavailableError, RayActorError

        lost = (RayActorError, ActorDiedError, ActorUnavailableError)
        self._host(worker, init)
        source = iter(items)
        pending: dict[Any, tuple[int, Any, Any]] = {}
        load: dict[Any, int] = {a: 0 for a in self.actors}
        done: dict[int, Any] = {}
        drawn = 0
        emitted = 0
        exhausted = False
        ahead = self.workers * self.in_flight * 2
        # Actors lost since the last result: a worker that cannot even start (a bad task file, a missing
        # service) would otherwise be replaced for ever.
        lost_in_a_row = 0

        def submit(actor: Any, seq: int, item: Any) -> None:
            pending[actor.call.remote(method, item)] = (seq, item, actor)
            load[actor] = load.get(actor, 0) + 1

        def fill() -> None:
            nonlocal drawn, exhausted
            for actor in list(load):
                while not exhausted and load[actor] < self.in_flight and drawn - emitted < ahead:
                    try:
                        item = next(source)
                    except StopIteration:
                        exhausted = True
                        break
                    submit(actor, drawn, item)
                    drawn += 1

        try:
            fill()
            while emitted < drawn or not exhausted:
                if emitted in done:
                    yield done.pop(emitted)
                    emitted += 1
                    fill()
                    continue
                if not pending:
                    fill()
                    if not pending:
                        break
                    continue
                [ref], _ = ray.wait(list(pending), num_returns=1)
                seq, item, actor = pending.pop(ref)
                try:
                    done[seq] = ray.get(ref)
                    load[actor] -= 1
                    lost_in_a_row = 0
                except lost as exc:
                    lost_in_a_row += 1
                    if lost_in_a_row > 2 * self.workers:
                        raise RuntimeError(
                            f"Ray workers keep dying ({lost_in_a_row} in a row); the last: {exc}"
                        ) from exc
                    # The actor is gone with whatever it held: a new one takes its place and this item.
                    if actor in load:
                        del load[actor]
                        self.actors.remove(actor)
                        self.replaced += 1
                        load[self._start(worker, init)] = 0
                    submit(min(load, key=lambda a: load[a]), seq, item)
                fill()
        finally:
            for ref in pending:
                # Already finished, or its actor is gone: nothing to cancel.
                with contextlib.suppress(TypeError, ValueError, RuntimeError):
                    ray.cancel(ref, force=False)

    def close(self) -> None:
        """Stop the actors, and the local Ray if this executor started it."""
        for actor in self.actors:
            self._ray.kill(actor)
        self.actors.clear()
        if self._owned and self._ray.is_initialized():
            self._ray.shutdown()
