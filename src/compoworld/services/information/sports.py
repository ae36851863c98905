"""Matchday Sports: football leagues, seasons, fixtures with live scores, standings, teams, players; followed teams.

Modeled on API-Football v3 (api-sports.io): ``/leagues`` (with ``seasons`` and
``current``), ``/teams`` (with ``venue``), ``/teams/statistics``, ``/fixtures``
(``league``, ``season``, ``team``, ``date``, ``from``/``to``, ``round``,
``status``, ``live=all``), ``/fixtures/headtohead``, ``/fixtures/rounds``,
``/fixtures/events`` (goals with the minute and scorer), ``/standings`` (rank,
points, goalsDiff, form, all/win/draw/lose) and ``/players`` and
``/players/topscorers``. Fixture statuses keep API-Football's short codes:
``NS`` not started, ``1H`` first half, ``HT`` half time, ``2H`` second half,
``FT`` full time, ``PST`` postponed.

An open-world service: each league season is a double round robin of its ten
clubs drawn from the world seed, with every match's goals (minute and scorer)
fixed in advance; a match's status and score follow from the clock (a match
kicked off 60 minutes ago is in its second half with the goals scored so far),
and standings, team statistics and top scorers are computed from the finished
matches, so all tools agree. The world's companies sponsor clubs (the home
company's name is on one club's shirts). Stored state is the team's followed
clubs (as in FotMob or the Onefootball app): an employee follows a club once,
a muted follow raises no alerts, and syncing a follow turns the club's goals
and final whistles since the follow began into alerts, each once.
"""

from __future__ import annotations

import datetime as dt
import math
import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Population
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import EPOCH, SeedContext
from compoworld.engine.types import CompanyName, Country, Date, DateTime, Email, IdOf, SemanticType, Text
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Created, Timestamped
from compoworld.services.kit.text import fold

__all__ = ["service"]

service = Service(
    "sports",
    title="Matchday Sports",
    category="sports_data",
    modeled_on="API-Football v3 (leagues, teams, teams/statistics, fixtures with live status and events, "
    "headtohead, rounds, standings, players, topscorers) with FotMob-style followed teams and score alerts",
    description="Football data: leagues and seasons, fixtures with live scores and goal events, standings, team "
    "statistics, squads and top scorers, and the team's followed clubs with goal and full-time alerts.",
)

LeagueId = Annotated[int, SemanticType("sports.league", kind="ref"), Field(ge=1, le=9999)]
TeamId = Annotated[int, SemanticType("sports.team", kind="ref"), Field(ge=1, le=99999)]
FixtureId = Annotated[int, SemanticType("sports.fixture", kind="ref"), Field(ge=1_000_000, le=9_999_999)]
PlayerId = Annotated[int, SemanticType("sports.player", kind="ref"), Field(ge=1, le=9_999_999)]
Season = Annotated[int, Field(ge=2000, le=2100)]
FollowId = Annotated[str, IdOf("sports.follow")]
AlertId = Annotated[str, IdOf("sports.alert")]
Status = Literal["NS", "1H", "HT", "2H", "FT", "PST"]
LIVE = ("1H", "HT", "2H")
SEASONS_BACK = 2
MAX_FOLLOWS = 10


@dataclass(frozen=True, slots=True)
class _League:
    id: int
    name: str
    country: str
    code: str
    calendar: bool
    """Season runs in one calendar year (else August to May)."""
    slots: tuple[tuple[int, int, int], ...]
    """Kick-offs of a round: (days after the round's Saturday, hour UTC, minute)."""
    teams: tuple[tuple[int, str, str, str, str, int], ...]
    """id, name, code, city, venue, capacity."""


_TEAM_ROWS = [
    line.split("|")
    for line in """
39|42|Arsenal|ARS|London|Emirates Stadium|60704
39|49|Chelsea|CHE|London|Stamford Bridge|41841
39|40|Liverpool|LIV|Liverpool|Anfield|61276
39|50|Manchester City|MCI|Manchester|Etihad Stadium|53400
39|33|Manchester United|MUN|Manchester|Old Trafford|74310
39|47|Tottenham|TOT|London|Tottenham Hotspur Stadium|62850
39|34|Newcastle|NEW|Newcastle|St. James' Park|52758
39|66|Aston Villa|AVL|Birmingham|Villa Park|42640
39|51|Brighton|BHA|Brighton|American Express Stadium|31876
39|48|West Ham|WHU|London|London Stadium|62500
78|157|Bayern Munich|BAY|Munich|Allianz Arena|75024
78|165|Borussia Dortmund|DOR|Dortmund|Signal Iduna Park|81365
78|168|Bayer Leverkusen|LEV|Leverkusen|BayArena|30210
78|173|RB Leipzig|RBL|Leipzig|Red Bull Arena|47069
78|172|VfB Stuttgart|STU|Stuttgart|MHPArena|60449
78|169|Eintracht Frankfurt|EIN|Frankfurt|Deutsche Bank Park|58000
78|161|VfL Wolfsburg|WOL|Wolfsburg|Volkswagen Arena|28917
78|160|SC Freiburg|FRE|Freiburg|Europa-Park Stadion|34700
78|163|Borussia Monchengladbach|BMG|Monchengladbach|Borussia-Park|54057
78|182|Union Berlin|UNI|Berlin|Stadion An der Alten Forsterei|22012
98|287|Kawasaki Frontale|KAW|Kawasaki|Todoroki Athletics Stadium|26827
98|290|Yokohama F. Marinos|YFM|Yokohama|Nissan Stadium|72327
98|292|Urawa Red Diamonds|URA|Saitama|Saitama Stadium 2002|63700
98|281|Kashima Antlers|KAS|Kashima|Kashima Soccer Stadium|40728
98|288|Vissel Kobe|KOB|Kobe|Noevir Stadium Kobe|30132
98|294|Gamba Osaka|GAM|Suita|Panasonic Stadium Suita|39694
98|282|Cerezo Osaka|CER|Osaka|Yodoko Sakura Stadium|24481
98|296|Nagoya Grampus|NAG|Toyota|Toyota Stadium|44380
98|285|FC Tokyo|TOK|Tokyo|Ajinomoto Stadium|49970
98|293|Sanfrecce Hiroshima|SAN|Hiroshima|Edion Peace Wing|28520
""".strip().splitlines()
]
_SLOTS = {
    39: ("Premier League", "England", "GB", False, ((0, 12, 30), (0, 15, 0), (0, 15, 0), (1, 14, 0), (2, 20, 0))),
    78: ("Bundesliga", "Germany", "DE", False, ((-1, 19, 30), (0, 14, 30), (0, 14, 30), (0, 17, 30), (1, 16, 30))),
    98: ("J1 League", "Japan", "JP", True, ((0, 5, 0), (0, 9, 0), (1, 6, 0), (2, 7, 30), (2, 10, 0))),
}
_LEAGUES: tuple[_League, ...] = tuple(
    _League(lid, *spec, tuple((int(r[1]), r[2], r[3], r[4], r[5], int(r[6])) for r in _TEAM_ROWS if int(r[0]) == lid))
    for lid, spec in _SLOTS.items()
)
_BY_LEAGUE = {lg.id: lg for lg in _LEAGUES}
_TEAM_LEAGUE = {t[0]: lg for lg in _LEAGUES for t in lg.teams}
_TEAM = {t[0]: t for lg in _LEAGUES for t in lg.teams}
_NAMES = {
    row[:2]: tuple(row[3:].split("|"))
    for row in """
GB|James;Harry;Jack;Declan;Bukayo;Marcus;Kyle;Jordan;Mason;Reece|Walker;Rice;Stones;Shaw;Pope;Bowen;Watkins;Maddison;Gordon;Trippier
DE|Leon;Florian;Jamal;Kai;Joshua;Niclas;Thomas;Manuel;Jonas;Deniz|Goretzka;Wirtz;Havertz;Kimmich;Fullkrug;Muller;Hofmann;Undav;Schlotterbeck;Tah
JP|Kaoru;Takumi;Daichi;Junya;Ritsu;Wataru;Hidemasa;Ko;Ayase;Yuki|Mitoma;Minamino;Kamada;Ito;Doan;Endo;Morita;Itakura;Ueda;Soma
""".strip().splitlines()
}
_POSITIONS = ("Goalkeeper",) + ("Defender",) * 3 + ("Midfielder",) * 3 + ("Attacker",) * 2
_SCORE_WEIGHT = {"Goalkeeper": 0, "Defender": 1, "Midfielder": 3, "Attacker": 7}


@dataclass(frozen=True, slots=True)
class _Fixture:
    id: int
    league_id: int
    season: int
    round: int
    kickoff: dt.datetime
    home: int
    away: int
    postponed: bool
    goals: tuple[tuple[int, int, int], ...]
    """(minute, team id, player id), in minute order."""


def _current_season(lg: _League, day: dt.date) -> int:
    return day.year if lg.calendar or day.month >= 8 else day.year - 1


def _first_saturday(lg: _League, season: int) -> dt.date:
    start = dt.date(season, 2, 14) if lg.calendar else dt.date(season, 8, 10)
    return start + dt.timedelta(days=(5 - start.weekday()) % 7)


@lru_cache(maxsize=64)
def _strength(seed: int, team: int) -> float:
    return random.Random(f"sports-strength:{seed}:{team}").uniform(0.75, 1.35)


def _squad(seed: int, team: int) -> list[tuple[int, str, str, int]]:
    """(player id, name, position, shirt number) of a club; no two players of a league share a name."""
    lg = _TEAM_LEAGUE[team]
    first, last = (x.split(";") for x in _NAMES[lg.code])
    names = [f"{f} {n}" for f in first for n in last]
    random.Random(f"sports-squad:{seed}:{lg.id}").shuffle(names)
    k = [t[0] for t in lg.teams].index(team) * len(_POSITIONS)
    shirts = (1, 2, 4, 5, 6, 8, 10, 9, 11)
    return [(team * 100 + j + 1, names[k + j], pos, shirts[j]) for j, pos in enumerate(_POSITIONS)]


def _poisson(r: random.Random, mean: float) -> int:
    k, p, threshold = 0, 1.0, math.exp(-mean)
    while True:
        p *= r.random()
        if p <= threshold:
            return k
        k += 1


@lru_cache(maxsize=32)
def _season_fixtures(seed: int, league_id: int, season: int) -> tuple[_Fixture, ...]:
    lg = _BY_LEAGUE[league_id]
    ids = [t[0] for t in lg.teams]
    r = random.Random(f"sports:{seed}:{league_id}:{season}")
    r.shuffle(ids)
    n = len(ids)
    rounds: list[list[tuple[int, int]]] = []
    for k in range(n - 1):  # circle method
        rot = [ids[0], *(ids[1:][-k:] + ids[1:][:-k] if k else ids[1:])]
        rounds.append([(rot[i], rot[n - 1 - i]) if k % 2 else (rot[n - 1 - i], rot[i]) for i in range(n // 2)])
    rounds += [[(a, h) for h, a in rd] for rd in rounds]
    gap = 7 if lg.calendar else 14
    first = _first_saturday(lg, season)
    out = []
    for k, rd in enumerate(rounds):
        saturday = first + dt.timedelta(days=gap * k)
        for j, (home, away) in enumerate(rd):
            days, hour, minute = lg.slots[j % len(lg.slots)]
            day = saturday + dt.timedelta(days=days)
            kickoff = dt.datetime(day.year, day.month, day.day, hour, minute, tzinfo=dt.UTC)
            goals: list[tuple[int, int, int]] = []
            for team, mean in ((home, 1.45), (away, 1.1)):
                squad = _squad(seed, team)
                weights = [_SCORE_WEIGHT[p[2]] for p in squad]
                for _ in range(
                    _poisson(r, mean * _strength(seed, team) / _strength(seed, away if team == home else home))
                ):
                    goals.append((r.randint(1, 90), team, r.choices(squad, weights)[0][0]))
            fid = 1_000_000 + _LEAGUES.index(lg) * 1_000_000 + (season % 100) * 1000 + k * 10 + j
            out.append(
                _Fixture(fid, league_id, season, k + 1, kickoff, home, away, r.random() < 0.02, tuple(sorted(goals)))
            )
    return tuple(out)


def _state(f: _Fixture, now: dt.datetime) -> tuple[Status, int | None]:
    """Status and elapsed minutes of a fixture at ``now``."""
    if f.postponed:
        return "PST", None
    played = int((now - f.kickoff).total_seconds() // 60)
    if played < 0:
        return "NS", None
    if played < 47:
        return "1H", max(1, played)
    if played < 62:
        return "HT", 45
    if played < 110:
        return "2H", min(90, played - 17)
    return "FT", 90


def _seasons(ctx: Ctx, lg: _League, season: int | None) -> int:
    current = _current_season(lg, ctx.today())
    if season is None:
        return current
    if not current - SEASONS_BACK <= season <= current:
        raise NotFound(
            f"{lg.name} has no season {season} here",
            field="season",
            hint=f"use a season from {current - SEASONS_BACK} to {current}",
        )
    return season


def _league(league_id: int) -> _League:
    lg = _BY_LEAGUE.get(league_id)
    if lg is None:
        raise NotFound(f"no league {league_id}", field="league_id", hint="list leagues with sports__list_leagues")
    return lg


def _team(team_id: int, field: str = "team_id") -> tuple[int, str, str, str, str, int]:
    t = _TEAM.get(team_id)
    if t is None:
        raise NotFound(f"no team {team_id}", field=field, hint="list a league's teams with sports__list_teams")
    return t


def _fixtures(ctx: Ctx, lg: _League, season: int) -> tuple[_Fixture, ...]:
    return _season_fixtures(ctx.population.seed, lg.id, season)


def _sponsors(pop: Population) -> dict[int, str]:
    """Shirt sponsors: the home company on one club, customers on a few others."""
    r = random.Random(f"sports-sponsor:{pop.seed}")
    clubs = r.sample(sorted(_TEAM), 1 + min(6, len(pop.customers)))
    return {c: name for c, name in zip(clubs, [pop.home.name, *(c.name for c in pop.customers[:6])], strict=False)}


# -- result models -----------------------------------------------------------------------------------------


class SeasonInfo(BaseModel):
    """A season of a league."""

    year: int = Field(description="The season (its starting year).")
    start: Date = Field(description="First matchday.")
    end: Date = Field(description="Last matchday.")
    current: bool = Field(description="Whether it is the season under way.")


class League(BaseModel):
    """A league with its seasons."""

    id: LeagueId = Field(description="API-Football league id.")
    name: str = Field(description="Name.")
    country: str = Field(description="Country name.")
    country_code: Country = Field(description="ISO 3166-1 alpha-2 code.")
    seasons: list[SeasonInfo] = Field(description="Seasons covered, oldest first.")


class Team(BaseModel):
    """A club with its venue."""

    id: TeamId = Field(description="API-Football team id.")
    name: str = Field(description="Name.")
    code: str = Field(description="Three-letter code.")
    league_id: LeagueId = Field(description="Its league.")
    city: str = Field(description="Home city.")
    venue: str = Field(description="Stadium.")
    capacity: int = Field(description="Stadium capacity.")
    shirt_sponsor: CompanyName | None = Field(description="Company whose name is on the shirts, if any.")


class Goal(BaseModel):
    """A goal event."""

    minute: int = Field(description="Minute of play.")
    team_id: TeamId = Field(description="Scoring team.")
    player_id: PlayerId = Field(description="Scorer.")
    player_name: str = Field(description="Scorer's name.")


class Fixture(BaseModel):
    """A match with its live or final score."""

    id: FixtureId = Field(description="API-Football fixture id.")
    league_id: LeagueId = Field(description="League.")
    season: int = Field(description="Season.")
    round: str = Field(description="Round, as 'Regular Season - 12'.")
    kickoff: DateTime = Field(description="Kick-off (UTC).")
    venue: str = Field(description="Stadium.")
    status: Status = Field(description="NS, 1H, HT, 2H, FT or PST.")
    elapsed: int | None = Field(description="Minutes played (None before kick-off).")
    home_team_id: TeamId = Field(description="Home team.")
    home_team: str = Field(description="Its name.")
    away_team_id: TeamId = Field(description="Away team.")
    away_team: str = Field(description="Its name.")
    home_goals: int | None = Field(description="Home goals so far (None before kick-off).")
    away_goals: int | None = Field(description="Away goals so far.")
    events: list[Goal] = Field(description="Goals scored so far, in minute order.")


class Standing(BaseModel):
    """A team's row in the table."""

    rank: int = Field(description="Position.")
    team_id: TeamId = Field(description="Team.")
    team: str = Field(description="Its name.")
    played: int = Field(description="Matches finished.")
    win: int = Field(description="Wins.")
    draw: int = Field(description="Draws.")
    lose: int = Field(description="Losses.")
    goals_for: int = Field(description="Goals scored.")
    goals_against: int = Field(description="Goals conceded.")
    goals_diff: int = Field(description="goals_for - goals_against.")
    points: int = Field(description="3 a win, 1 a draw.")
    form: str = Field(description="Last five results, oldest first (W, D, L).")


class Player(BaseModel):
    """A player with the season's numbers."""

    id: PlayerId = Field(description="API-Football player id.")
    name: str = Field(description="Name.")
    team_id: TeamId = Field(description="Club.")
    position: str = Field(description="Goalkeeper, Defender, Midfielder or Attacker.")
    number: int = Field(description="Shirt number.")
    season: int = Field(description="Season of the numbers.")
    goals: int = Field(description="League goals in finished matches.")


class Round(BaseModel):
    """A round of a season."""

    round: str = Field(description="Round name.")
    first_kickoff: DateTime = Field(description="Its first kick-off.")
    current: bool = Field(description="Whether it is the current round.")


# -- computing ---------------------------------------------------------------------------------------------


def _fixture(ctx: Ctx, f: _Fixture) -> Fixture:
    status, elapsed = _state(f, ctx.now())
    names = {p[0]: p[1] for t in (f.home, f.away) for p in _squad(ctx.population.seed, t)}
    seen = [g for g in f.goals if elapsed is not None and g[0] <= elapsed]
    started = status not in ("NS", "PST")
    return Fixture(
        id=f.id,
        league_id=f.league_id,
        season=f.season,
        round=f"Regular Season - {f.round}",
        kickoff=f.kickoff,
        venue=_TEAM[f.home][4],
        status=status,
        elapsed=elapsed,
        home_team_id=f.home,
        home_team=_TEAM[f.home][1],
        away_team_id=f.away,
        away_team=_TEAM[f.away][1],
        home_goals=sum(g[1] == f.home for g in seen) if started else None,
        away_goals=sum(g[1] == f.away for g in seen) if started else None,
        events=[Goal(minute=m, team_id=t, player_id=p, player_name=names[p]) for m, t, p in seen],
    )


def _finished(ctx: Ctx, lg: _League, season: int) -> list[_Fixture]:
    now = ctx.now()
    return sorted((f for f in _fixtures(ctx, lg, season) if _state(f, now)[0] == "FT"), key=lambda f: f.kickoff)


def _table(ctx: Ctx, lg: _League, season: int) -> list[Standing]:
    won: dict[int, int] = {t[0]: 0 for t in lg.teams}
    drawn, lost, scored, conceded = dict(won), dict(won), dict(won), dict(won)
    form: dict[int, str] = {t: "" for t in won}
    for f in _finished(ctx, lg, season):
        hg = sum(g[1] == f.home for g in f.goals)
        ag = len(f.goals) - hg
        for team, gf, ga in ((f.home, hg, ag), (f.away, ag, hg)):
            tally = won if gf > ga else drawn if gf == ga else lost
            tally[team] += 1
            scored[team] += gf
            conceded[team] += ga
            form[team] = (form[team] + ("W" if gf > ga else "D" if gf == ga else "L"))[-5:]
    out = [
        Standing(
            rank=0,
            team_id=t,
            team=_TEAM[t][1],
            played=won[t] + drawn[t] + lost[t],
            win=won[t],
            draw=drawn[t],
            lose=lost[t],
            goals_for=scored[t],
            goals_against=conceded[t],
            goals_diff=scored[t] - conceded[t],
            points=3 * won[t] + drawn[t],
            form=form[t],
        )
        for t in won
    ]
    out.sort(key=lambda s: (-s.points, -s.goals_diff, -s.goals_for, s.team))
    return [s.model_copy(update={"rank": k + 1}) for k, s in enumerate(out)]


def _find_fixture(ctx: Ctx, fixture_id: int, field: str = "fixture_id") -> _Fixture:
    for lg in _LEAGUES:
        current = _current_season(lg, ctx.today())
        for season in range(current - SEASONS_BACK, current + 1):
            for f in _fixtures(ctx, lg, season):
                if f.id == fixture_id:
                    return f
    raise NotFound(f"no fixture {fixture_id}", field=field, hint="list fixtures with sports__list_fixtures")


# -- open-world tools --------------------------------------------------------------------------------------


@service.tool(intent="list football leagues", open_world=True)
def list_leagues(ctx: Ctx, country_code: Country | None = None) -> list[League]:
    """List the leagues covered with their seasons (/leagues), optionally of one country.

    Args:
        country_code: Only leagues of this country (ISO 3166-1 alpha-2; GB for England).
    """
    out = []
    for lg in _LEAGUES:
        if country_code is not None and lg.code != country_code:
            continue
        current = _current_season(lg, ctx.today())
        seasons = []
        for year in range(current - SEASONS_BACK, current + 1):
            fx = _fixtures(ctx, lg, year)
            seasons.append(
                SeasonInfo(year=year, start=fx[0].kickoff.date(), end=fx[-1].kickoff.date(), current=year == current)
            )
        out.append(League(id=lg.id, name=lg.name, country=lg.country, country_code=lg.code, seasons=seasons))
    return out


def _team_out(ctx: Ctx, t: tuple[int, str, str, str, str, int]) -> Team:
    return Team(
        id=t[0],
        name=t[1],
        code=t[2],
        league_id=_TEAM_LEAGUE[t[0]].id,
        city=t[3],
        venue=t[4],
        capacity=t[5],
        shirt_sponsor=_sponsors(ctx.population).get(t[0]),
    )


@service.tool(intent="list the league's teams", open_world=True, example=fixed_example(league_id=39))
def list_teams(ctx: Ctx, league_id: LeagueId | None = None, search: str | None = None) -> list[Team]:
    """List clubs (/teams) of a league or by name, with venue and shirt sponsor.

    Args:
        league_id: Only clubs of this league.
        search: Words of the club's name.
    """
    if league_id is not None:
        _league(league_id)
    words = fold(search or "").split()
    return [
        _team_out(ctx, t)
        for lg in _LEAGUES
        if league_id is None or lg.id == league_id
        for t in lg.teams
        if all(w in fold(t[1]).split() for w in words)
    ]


@service.tool(intent="get the team", open_world=True, example=fixed_example(team_id=42))
def get_team(ctx: Ctx, team_id: TeamId) -> Team:
    """Get a club with its city, venue, capacity and shirt sponsor.

    Args:
        team_id: The API-Football team id.
    """
    return _team_out(ctx, _team(team_id))


@service.tool(intent="list fixtures", open_world=True, example=fixed_example(league_id=98, round=3))
def list_fixtures(
    ctx: Ctx,
    league_id: LeagueId,
    season: Season | None = None,
    team_id: TeamId | None = None,
    round: Annotated[int, Field(ge=1, le=60)] | None = None,
    date_from: Date | None = None,
    date_to: Date | None = None,
    status: Status | None = None,
) -> list[Fixture]:
    """List a league season's fixtures (/fixtures) by team, round, date range and status, by kick-off.

    Args:
        league_id: The league.
        season: The season (default: the current one).
        team_id: Only this club's matches.
        round: Only this round.
        date_from: First kick-off date.
        date_to: Last kick-off date.
        status: Only matches with this status now.
    """
    lg = _league(league_id)
    year = _seasons(ctx, lg, season)
    if team_id is not None and _TEAM_LEAGUE[_team(team_id)[0]].id != lg.id:
        raise RuleViolation(f"team {team_id} does not play in {lg.name}", field="team_id", hint="check the league_id")
    if date_from and date_to and date_to < date_from:
        raise RuleViolation(f"date_to {date_to} is before date_from {date_from}", field="date_to", hint="swap them")
    out = [
        _fixture(ctx, f)
        for f in _fixtures(ctx, lg, year)
        if (team_id is None or team_id in (f.home, f.away))
        and (round is None or f.round == round)
        and (date_from is None or f.kickoff.date() >= date_from)
        and (date_to is None or f.kickoff.date() <= date_to)
    ]
    return [f for f in out if status is None or f.status == status]


@service.tool(intent="list the matches being played now", open_world=True)
def list_live_fixtures(ctx: Ctx, league_id: LeagueId | None = None) -> list[Fixture]:
    """List the matches in play right now (/fixtures?live=all) with their running score.

    Args:
        league_id: Only this league's matches.
    """
    leagues = _LEAGUES if league_id is None else (_league(league_id),)
    now = ctx.now()
    return [
        _fixture(ctx, f)
        for lg in leagues
        for f in _fixtures(ctx, lg, _current_season(lg, now.date()))
        if _state(f, now)[0] in LIVE
    ]


def _example_fixture(ctx: Ctx) -> dict[str, Any]:
    lg = _LEAGUES[0]
    return {"fixture_id": _finished(ctx, lg, _current_season(lg, ctx.today()))[-1].id}


@service.tool(intent="get the match", open_world=True, example=_example_fixture)
def get_fixture(ctx: Ctx, fixture_id: FixtureId) -> Fixture:
    """Get one match with its status, minutes played, score and goal events so far.

    Args:
        fixture_id: The API-Football fixture id.
    """
    return _fixture(ctx, _find_fixture(ctx, fixture_id))


@service.tool(intent="compare two teams' past meetings", open_world=True, example=fixed_example(team_a=42, team_b=49))
def head_to_head(ctx: Ctx, team_a: TeamId, team_b: TeamId) -> list[Fixture]:
    """List the finished and coming meetings of two clubs over the seasons covered (/fixtures/headtohead).

    Args:
        team_a: One club.
        team_b: The other club (same league).
    """
    _team(team_a, "team_a")
    _team(team_b, "team_b")
    if team_a == team_b or _TEAM_LEAGUE[team_a] is not _TEAM_LEAGUE[team_b]:
        raise RuleViolation(
            "head to head needs two different clubs of one league",
            field="team_b",
            hint="pick a rival from the same league",
        )
    lg = _TEAM_LEAGUE[team_a]
    current = _current_season(lg, ctx.today())
    return [
        _fixture(ctx, f)
        for year in range(current - SEASONS_BACK, current + 1)
        for f in _fixtures(ctx, lg, year)
        if {f.home, f.away} == {team_a, team_b}
    ]


@service.tool(intent="list a season's rounds", open_world=True, example=fixed_example(league_id=78))
def list_rounds(ctx: Ctx, league_id: LeagueId, season: Season | None = None) -> list[Round]:
    """List a season's rounds with their first kick-off, marking the current one (/fixtures/rounds).

    Args:
        league_id: The league.
        season: The season (default: the current one).
    """
    lg = _league(league_id)
    fx = _fixtures(ctx, lg, _seasons(ctx, lg, season))
    firsts: dict[int, dt.datetime] = {}
    for f in fx:
        firsts[f.round] = min(firsts.get(f.round, f.kickoff), f.kickoff)
    live = [f.round for f in fx if _state(f, ctx.now())[0] != "FT" and not f.postponed]
    current = min(live) if live else max(firsts)
    return [Round(round=f"Regular Season - {k}", first_kickoff=v, current=k == current) for k, v in firsts.items()]


@service.tool(intent="get the league table", open_world=True, example=fixed_example(league_id=39))
def get_standings(ctx: Ctx, league_id: LeagueId, season: Season | None = None) -> list[Standing]:
    """Get the league table (/standings) from the finished matches: points, goal difference, form.

    Args:
        league_id: The league.
        season: The season (default: the current one).
    """
    lg = _league(league_id)
    return _table(ctx, lg, _seasons(ctx, lg, season))


def _players(ctx: Ctx, team_id: int, season: int) -> list[Player]:
    lg = _TEAM_LEAGUE[team_id]
    scored: dict[int, int] = {}
    for f in _finished(ctx, lg, season):
        for _, _, p in f.goals:
            scored[p] = scored.get(p, 0) + 1
    return [
        Player(id=p, name=n, team_id=team_id, position=pos, number=no, season=season, goals=scored.get(p, 0))
        for p, n, pos, no in _squad(ctx.population.seed, team_id)
    ]


@service.tool(intent="list the team's squad", open_world=True, example=fixed_example(team_id=157))
def list_players(ctx: Ctx, team_id: TeamId, season: Season | None = None) -> list[Player]:
    """List a club's squad with each player's league goals in the season (/players).

    Args:
        team_id: The club.
        season: The season (default: the current one).
    """
    _team(team_id)
    return _players(ctx, team_id, _seasons(ctx, _TEAM_LEAGUE[team_id], season))


@service.tool(intent="get the player", open_world=True, example=fixed_example(player_id=4208))
def get_player(ctx: Ctx, player_id: PlayerId, season: Season | None = None) -> Player:
    """Get a player with their club, position, number and league goals in the season.

    Args:
        player_id: The API-Football player id.
        season: The season (default: the current one).
    """
    team = player_id // 100
    if team not in _TEAM or not 1 <= player_id % 100 <= len(_POSITIONS):
        raise NotFound(f"no player {player_id}", field="player_id", hint="list a squad with sports__list_players")
    return next(p for p in list_players(ctx, team, season) if p.id == player_id)


@service.tool(intent="list the league's top scorers", open_world=True, example=fixed_example(league_id=78))
def top_scorers(
    ctx: Ctx, league_id: LeagueId, season: Season | None = None, limit: Annotated[int, Field(ge=1, le=50)] = 10
) -> list[Player]:
    """List a league season's top scorers (/players/topscorers), most goals first.

    Args:
        league_id: The league.
        season: The season (default: the current one).
        limit: Most players.
    """
    lg = _league(league_id)
    year = _seasons(ctx, lg, season)
    everyone = [p for t in lg.teams for p in _players(ctx, t[0], year) if p.goals]
    return sorted(everyone, key=lambda p: (-p.goals, p.id))[:limit]


# -- followed teams ------------------------------------------------------------------------------------------


class Follow(Timestamped):
    """An employee following a club."""

    id: FollowId
    follower_email: Email
    """The employee."""
    team_id: TeamId
    """The club."""
    notify_goals: bool = True
    """Alert on every goal of the club's matches."""
    notify_full_time: bool = True
    """Alert on the final whistle."""
    status: Literal["active", "muted"] = "active"
    """active, or muted (no alerts)."""
    synced_until: DateTime | None = None
    """Events up to this time have been turned into alerts (None: since the follow began)."""


class Alert(Created):
    """A score alert for a follower."""

    id: AlertId
    follow_id: FollowId
    """The follow that raised it."""
    follower_email: Email
    """Who it is for."""
    fixture_id: FixtureId
    """The match."""
    kind: Literal["goal", "full_time"]
    """goal or full_time."""
    minute: int
    """Minute of the event."""
    message: Text
    """The alert text, with the score."""
    status: Literal["unread", "read"] = "unread"
    """unread or read."""


def _guard_follow(ctx: Ctx, new: Follow, old: Follow | None) -> None:
    if new.follower_email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(
            f"{new.follower_email} is not an employee", field="follower_email", hint="follows belong to staff"
        )
    _team(new.team_id)
    mine = [f for f in ctx.where(Follow, follower_email=new.follower_email) if f.id != new.id]
    for other in mine:
        if other.team_id == new.team_id:
            raise Conflict(
                f"{new.follower_email} already follows team {new.team_id}: {other.id}",
                field="team_id",
                hint="update that follow instead",
            )
    if len(mine) >= MAX_FOLLOWS:
        raise RuleViolation(
            f"{new.follower_email} already follows {MAX_FOLLOWS} teams",
            field="follower_email",
            hint="unfollow a team first",
        )


def _guard_follow_delete(ctx: Ctx, new: None, old: Follow) -> None:
    for a in ctx.where(Alert, follow_id=old.id):
        ctx.delete(a)


follows = service.resource(
    Follow,
    name="follow",
    plural="follows",
    prefix="fol",
    create=("follower_email", "team_id", "notify_goals", "notify_full_time"),
    filters=("follower_email", "team_id", "status"),
    update=("notify_goals", "notify_full_time"),
    transitions={
        "mute": Transition("status", ("active",), "muted", "mute the follow's alerts"),
        "unmute": Transition("status", ("muted",), "active", "turn the follow's alerts back on"),
    },
    guard_create=_guard_follow,
    guard_update=_guard_follow,
    guard_delete=_guard_follow_delete,
    title="followed team",
)
alerts = service.resource(
    Alert,
    name="alert",
    plural="alerts",
    prefix="alr",
    create=False,
    filters=("follow_id", "follower_email", "fixture_id", "kind", "status"),
    search=("message",),
    transitions={"mark_read": Transition("status", ("unread",), "read", "mark the alert as read")},
    title="score alert",
)


def _alert(follow: Follow, f: _Fixture, kind: str, minute: int) -> dict[str, Any]:
    """An alert's fields: the score at ``minute`` of ``f``."""
    hg = sum(g[1] == f.home and g[0] <= minute for g in f.goals)
    ag = sum(g[1] == f.away and g[0] <= minute for g in f.goals)
    head = "Full time" if kind == "full_time" else f"Goal {minute}'"
    text = f"{head}: {_TEAM[f.home][1]} {hg}-{ag} {_TEAM[f.away][1]}"
    return {
        "follow_id": follow.id,
        "follower_email": follow.follower_email,
        "fixture_id": f.id,
        "kind": kind,
        "minute": minute,
        "message": text,
    }


def _sync(ctx: Ctx, follow: Follow, now: dt.datetime) -> list[Alert]:
    lg = _TEAM_LEAGUE[follow.team_id]
    since = follow.synced_until or follow.created_at
    made = []
    for f in _fixtures(ctx, lg, _current_season(lg, now.date())):
        if follow.team_id not in (f.home, f.away) or f.postponed or f.kickoff > now:
            continue
        events = [(m, "goal") for m, _, _ in f.goals if follow.notify_goals] + [
            (90, "full_time")
        ] * follow.notify_full_time
        for minute, kind in events:
            at = f.kickoff + dt.timedelta(
                minutes=minute + (17 if minute > 45 else 0) + (3 if kind == "full_time" else 0)
            )
            if not since < at <= now:
                continue
            made.append(ctx.create(Alert, **_alert(follow, f, kind, minute)))
    return made


@service.tool(
    intent="turn a followed team's new goals and results into alerts",
    write=True,
    example=first_example(Follow, "follow_id", where={"status": "active"}),
)
def sync_alerts(ctx: Ctx, follow_id: FollowId) -> list[Alert]:
    """Raise alerts for the followed club's goals and final whistles since the last sync; returns the new alerts.

    Args:
        follow_id: The follow (active; a muted follow raises no alerts).
    """
    follow = ctx.get(Follow, follow_id, field="follow_id")
    if follow.status == "muted":
        raise RuleViolation(f"follow {follow.id} is muted", field="follow_id", hint="unmute it first")
    now = ctx.now()
    made = _sync(ctx, follow, now)
    ctx.update(follow, synced_until=now)
    return made


# -- seed --------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Employees follow the sponsored club and rivals, one follow muted, with the last weeks' alerts."""
    pop = s.population
    sponsored = next(iter(_sponsors(pop)))
    league = _TEAM_LEAGUE[sponsored]
    rivals = [t[0] for t in league.teams if t[0] != sponsored][:2]
    teams = list(dict.fromkeys([sponsored, *rivals, _LEAGUES[2].teams[0][0]]))
    people = pop.staff("Sales", "Marketing", "Engineering", fallback=4)
    for k, person in enumerate(people[:4]):
        for j, team in enumerate(teams[: 2 + k % 2]):
            start = EPOCH - dt.timedelta(days=21 + 7 * j)
            seeded = k != 1 and j == 0
            synced = EPOCH - dt.timedelta(days=2) if seeded else start
            follow = s.create(
                Follow,
                follower_email=person.email,
                team_id=team,
                notify_goals=not seeded,
                status="muted" if (k, j) == (1, 1) else "active",
                synced_until=synced,
                created_at=start,
                updated_at=synced,
            )
            if not seeded:
                continue
            lg = _TEAM_LEAGUE[team]
            for f in _season_fixtures(pop.seed, lg.id, _current_season(lg, EPOCH.date())):
                ends = f.kickoff + dt.timedelta(minutes=110)
                if team in (f.home, f.away) and not f.postponed and start < ends <= synced:
                    fields = _alert(follow, f, "full_time", 90)
                    s.create(Alert, **fields, status="read" if k % 2 else "unread", created_at=ends)
