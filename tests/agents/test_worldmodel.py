"""World models: synthetic determinism, the LLM backend through the real openai client, recording and replay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import BaseModel, Field

from compoworld import Catalog, CatalogError, Ctx, Episode, Service, World
from compoworld.agents.worldmodel import LLMWorldModel, WorldModelConfig, make_world_model
from compoworld.devtools.testing import ScriptedChatServer
from compoworld.engine.openworld import Recording, ReplayWorldModel
from compoworld.engine.registration import resolve
from compoworld.engine.types import City, DateTime

ORACLE = Service("oracle", title="Oracle", category="test", modeled_on="nothing", description="Open-world test.")


class Forecast(BaseModel):
    """A forecast."""

    city: City = Field(description="The city.")
    temperature_c: float = Field(description="Temperature in Celsius.")
    summary: str = Field(description="One word.")
    issued_at: DateTime = Field(description="When the forecast was issued.")


@ORACLE.tool(intent="get a forecast", open_world=True)
def forecast(ctx: Ctx, city: City, days: int = 1) -> Forecast:
    """Forecast the weather.

    Args:
        city: The city.
        days: Days ahead.
    """
    return Forecast(
        city=city,
        temperature_c=round(ctx.rng.uniform(-10, 35), 1),
        summary=ctx.rng.choice(["sunny", "rain", "cloudy", "snow"]),
        issued_at=ctx.now(),
    )


@pytest.fixture(scope="module")
def world() -> World:
    return World.build(Catalog([ORACLE, resolve("crm")]), seed=5)


VALID = json.dumps({"city": "Berlin", "temperature_c": 21.5, "summary": "sunny", "issued_at": "2026-03-02T09:00:00Z"})


def test_synthetic_answers_depend_only_on_the_call_not_on_the_episode_or_its_clock(world: World) -> None:
    a, b = Episode(world, seed=1), Episode(world, seed=2)
    b.call("crm__update_account", {"account_id": "acc_000002", "industry": "x"})  # moves b's clock
    assert b.now() != a.now()
    ra = a.call("oracle__forecast", {"city": "Berlin"})
    rb = b.call("oracle__forecast", {"city": "Berlin", "days": 1})  # the default, spelled out
    assert ra.ok and ra.result == rb.result
    a.call("oracle__forecast", {"city": "Paris"})
    assert len(a.recording.answers) == 2 and {x.source for x in a.recording.answers.values()} == {"synthetic"}


def test_open_world_tools_must_be_read_only() -> None:
    svc = Service("bad_ow", title="x", category="x", modeled_on="x", description="x")

    @svc.tool(intent="x", open_world=True, write=True)
    def post(ctx: Ctx, city: City) -> int:
        """Post.

        Args:
            city: A city.
        """
        return 1

    with pytest.raises(CatalogError, match="open-world"):
        Catalog([svc])


def test_llm_answer_is_validated_returned_and_cached(world: World, tmp_path: Path) -> None:
    with ScriptedChatServer([VALID]) as server:
        model = LLMWorldModel(server.url, "sim", cache_path=tmp_path / "c.sqlite")
        ep = Episode(world, world_model=model)
        first = ep.call("oracle__forecast", {"city": "Berlin"})
        second = Episode(world, world_model=model).call("oracle__forecast", {"city": "Berlin"})
        assert first.ok and first.result == json.loads(VALID) == second.result
        assert len(server.requests) == 1  # the second call never reached the server
        request = server.requests[0]
        assert request["model"] == "sim" and request["response_format"] == {"type": "json_object"}
        assert "reference_answer" in request["messages"][-1]["content"]
        assert model.stats.cache_hits == 1
        assert ep.recording.answers[next(iter(ep.recording.answers))].source == "llm"
        server.assert_script_used()


def test_llm_invalid_answers_are_retried(world: World, tmp_path: Path) -> None:
    wrong_type = json.dumps({"city": "Berlin", "temperature_c": "warm", "summary": "sunny", "issued_at": "x"})
    with ScriptedChatServer(["not json at all", wrong_type, VALID]) as server:
        model = LLMWorldModel(server.url, "sim", cache_path=tmp_path / "c.sqlite", max_attempts=3)
        res = Episode(world, world_model=model).call("oracle__forecast", {"city": "Berlin"})
        assert res.ok and res.result["temperature_c"] == 21.5
        assert len(server.requests) == 3 and model.stats.invalid == 2
        assert "invalid" in server.requests[2]["messages"][-1]["content"]


def test_llm_that_keeps_answering_invalid_output_falls_back_to_synthetic(world: World, tmp_path: Path) -> None:
    with ScriptedChatServer(["{}", "{}"]) as server:
        model = LLMWorldModel(server.url, "sim", cache_path=tmp_path / "c.sqlite", max_attempts=2)
        res = Episode(world, world_model=model).call("oracle__forecast", {"city": "Oslo"})
    synthetic = Episode(world).call("oracle__forecast", {"city": "Oslo"})
    assert res.ok and res.result == synthetic.result and model.stats.fallbacks == 1


def test_a_dead_endpoint_falls_back_to_synthetic(world: World, tmp_path: Path) -> None:
    with ScriptedChatServer() as server:
        url = server.url
    # The server is stopped: nothing listens on that port any more.
    model = LLMWorldModel(url, "sim", cache_path=tmp_path / "c.sqlite", timeout_s=2)
    res = Episode(world, world_model=model).call("oracle__forecast", {"city": "Rome"})
    assert res.ok and res.result == Episode(world).call("oracle__forecast", {"city": "Rome"}).result
    assert model.stats.errors == 1 and model.stats.fallbacks == 1


def test_server_errors_are_retried(world: World, tmp_path: Path) -> None:
    with ScriptedChatServer([503, VALID]) as server:
        model = LLMWorldModel(server.url, "sim", cache_path=tmp_path / "c.sqlite")
        res = Episode(world, world_model=model).call("oracle__forecast", {"city": "Berlin"})
        assert res.ok and res.result["summary"] == "sunny" and len(server.requests) == 2


def test_the_cache_survives_a_restart(world: World, tmp_path: Path) -> None:
    cache = tmp_path / "c.sqlite"
    with ScriptedChatServer([VALID]) as server:
        first = LLMWorldModel(server.url, "sim", cache_path=cache)
        Episode(world, world_model=first).call("oracle__forecast", {"city": "Berlin"})
        first.close()
        again = LLMWorldModel(server.url, "sim", cache_path=cache)
        res = Episode(world, world_model=again).call("oracle__forecast", {"city": "Berlin"})
        assert res.result == json.loads(VALID)
        assert len(server.requests) == 1 and again.stats.requests == 0


def test_replay_reproduces_the_state_hash_and_every_open_world_result(world: World, tmp_path: Path) -> None:
    calls = [
        ("oracle__forecast", {"city": "Berlin"}),
        ("crm__update_account", {"account_id": "acc_000003", "industry": "weather services"}),
        ("oracle__forecast", {"city": "Madrid", "days": 3}),
        (
            "crm__create_contact",
            {"account_id": "acc_000003", "first_name": "Ana", "last_name": "Gil", "email": "ana@x.org"},
        ),
    ]
    with ScriptedChatServer([VALID, VALID.replace("Berlin", "Madrid")]) as server:
        live = Episode(world, world_model=LLMWorldModel(server.url, "sim", cache_path=tmp_path / "c.sqlite"))
        live_results = [live.call(t, a).to_dict() for t, a in calls]
    path = live.recording.save(tmp_path / "rec.json")
    replay = Episode(world, world_model=ReplayWorldModel(Recording.load(path)))
    assert [replay.call(t, a).to_dict() for t, a in calls] == live_results
    assert replay.state_hash() == live.state_hash()
    unrecorded = replay.call("oracle__forecast", {"city": "Lisbon"})
    assert not unrecorded.ok and unrecorded.error is not None
    assert unrecorded.error.type == "not_found" and "recorded" in unrecorded.error.hint


def test_reset_clears_the_recording(world: World) -> None:
    ep = Episode(world)
    ep.call("oracle__forecast", {"city": "Berlin"})
    ep.reset()
    assert ep.recording.answers == {}


def test_world_model_config_builds_each_backend(tmp_path: Path) -> None:
    assert make_world_model().name == "synthetic"
    rec = Recording().save(tmp_path / "r.json")
    assert make_world_model(WorldModelConfig(backend="replay", recording=str(rec))).name == "replay"
    llm = make_world_model(
        WorldModelConfig(backend="llm", base_url="http://127.0.0.1:9/v1", model="m", cache_path=str(tmp_path / "c"))
    )
    assert llm.name == "llm"
    with pytest.raises(ValueError, match="base URL"):
        make_world_model(WorldModelConfig(backend="llm"))
    with pytest.raises(ValueError, match="recording"):
        make_world_model(WorldModelConfig(backend="replay"))
