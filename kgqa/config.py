"""Settings and parameters. The only module that reads environment variables."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from kgqa.errors import ConfigError
from kgqa.index_names import index_name
from kgqa.memory import MemoryCeiling

DEFAULT_DB = Path(".kgqa") / "graph.kuzu"
DEFAULT_EMBEDDING_MODEL = "all-MiniLM-L6-v2"
DEFAULT_STORE = "kuzu"
#: Where the graph can live (`--graph`, KGQA_GRAPH): embedded Kùzu, or the index schema in Postgres.
GRAPHS = ("kuzu", "postgres")
#: The setting naming the schema of a user's own graph views (`--graph-schema`; docs/postgres-graph.md).
GRAPH_SCHEMA_SETTING = "--graph-schema / KGQA_PG_GRAPH_SCHEMA"
_SCHEMA_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")
DEFAULT_LLM_MODEL = "claude-sonnet-4-6"
DEFAULT_QUESTION_TIMEOUT = 30.0  # seconds per question (KGQA_QUESTION_TIMEOUT)
MAX_QUESTION_TIMEOUT = 3600.0
#: The query-time roles that `KGQA_LLM_OFFLINE_ROLES` may hand to the offline implementation.
LLM_ROLES = ("components", "partial", "final", "triples")


@dataclass(frozen=True)
class LLMSettings:
    """The LLM provider's settings. The API key is kept out of repr() so it is never echoed."""

    model: str = DEFAULT_LLM_MODEL
    api_key: str | None = field(default=None, repr=False)
    base_url: str | None = None  # None: the official endpoint
    timeout_s: float = 60.0  # per request attempt
    max_retries: int = 4  # on 429, 5xx, timeouts and connection errors (exponential backoff)
    concurrency: int = 4  # parallel requests (partial answers, verbalisation batches)
    token_budget: int | None = None  # per question; None: unlimited
    cache: bool = True  # persistent response cache
    cache_path: Path | None = None  # None: <data dir>/llm-cache.sqlite
    verbalise_batch: int = 30  # paths per verbalisation request
    offline_roles: tuple[str, ...] = ()  # query-time roles answered offline even in LLM mode

    def __post_init__(self) -> None:
        object.__setattr__(self, "offline_roles", tuple(self.offline_roles))
        unknown = set(self.offline_roles) - set(LLM_ROLES)
        if unknown:
            raise ConfigError(f"unknown LLM role(s) {', '.join(sorted(unknown))}; known: {', '.join(LLM_ROLES)}")
        _seconds("LLM timeout (KGQA_LLM_TIMEOUT)", self.timeout_s, 3600)
        _positive("LLM max_retries", self.max_retries, minimum=0, maximum=20)
        _positive("LLM concurrency", self.concurrency, maximum=64)
        _positive("LLM token budget", self.token_budget, allow_none=True, maximum=100_000_000)
        _positive("LLM verbalise batch", self.verbalise_batch, maximum=1_000)

    @classmethod
    def from_env(cls, **overrides: Any) -> LLMSettings:
        """`ANTHROPIC_API_KEY`, `ANTHROPIC_BASE_URL` and the `KGQA_LLM_*` variables, then defaults."""
        env = os.environ
        values: dict[str, Any] = {
            "model": env.get("KGQA_LLM_MODEL") or DEFAULT_LLM_MODEL,
            "api_key": env.get("ANTHROPIC_API_KEY") or None,
            "base_url": env.get("ANTHROPIC_BASE_URL") or None,
            "timeout_s": _env_number("KGQA_LLM_TIMEOUT", float, 60.0),
            "max_retries": _env_number("KGQA_LLM_MAX_RETRIES", int, 4),
            "concurrency": _env_number("KGQA_LLM_CONCURRENCY", int, 4),
            "token_budget": _env_number("KGQA_LLM_TOKEN_BUDGET", int, None),
            "verbalise_batch": _env_number("KGQA_LLM_VERBALISE_BATCH", int, 30),
            "offline_roles": tuple(r.strip() for r in env.get("KGQA_LLM_OFFLINE_ROLES", "").split(",") if r.strip()),
        }
        cache = env.get("KGQA_LLM_CACHE", "").strip()
        if cache.lower() in ("off", "0", "false", "no"):
            values["cache"] = False
        elif cache:
            values["cache_path"] = Path(cache)
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)


def _env_number(name: str, kind: type, default: Any) -> Any:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        return kind(raw)
    except ValueError:
        raise ConfigError(f"{name} must be {'an integer' if kind is int else 'a number'}, got {raw!r}") from None


@dataclass(frozen=True)
class AnnParams:
    """The HNSW parameters of both stores: graph degree `m` and `ef_construction` when the index is
    created, `ef_search` (candidates per search; None: max(200, 2k)) at query time."""

    m: int = 16
    ef_construction: int = 64
    ef_search: int | None = None

    def __post_init__(self) -> None:
        _positive("m (KGQA_HNSW_M)", self.m, minimum=2, maximum=256)
        _positive("ef_construction (KGQA_HNSW_EF_CONSTRUCTION)", self.ef_construction, maximum=10_000)
        _positive("ef_search (KGQA_ANN_EF_SEARCH)", self.ef_search, allow_none=True, maximum=100_000)

    def search_width(self, k: int) -> int:
        """Candidates examined for a top-k search (never fewer than k)."""
        return max(k, self.ef_search if self.ef_search is not None else max(200, 2 * k))

    @classmethod
    def from_env(cls) -> AnnParams:
        """From KGQA_HNSW_M, KGQA_HNSW_EF_CONSTRUCTION and KGQA_ANN_EF_SEARCH (defaults otherwise)."""
        return cls(
            _env_number("KGQA_HNSW_M", int, 16),
            _env_number("KGQA_HNSW_EF_CONSTRUCTION", int, 64),
            _env_number("KGQA_ANN_EF_SEARCH", int, None),
        )


@dataclass(frozen=True)
class Settings:
    """Where the database lives and which models are used."""

    db_path: Path = DEFAULT_DB
    embedding_model: str = DEFAULT_EMBEDDING_MODEL
    embedding_batch_size: int = 64
    trace: bool = False
    llm: LLMSettings = field(default_factory=LLMSettings)
    ann: AnnParams = field(default_factory=AnnParams)  # HNSW parameters of the vector stores
    buffer_pool_mib: int | None = None  # Kùzu's page cache (None: sized from the database, kgqa/graph/buffer_pool.py)
    memory: MemoryCeiling = field(default_factory=MemoryCeiling.default)  # --memory / KGQA_MEMORY (kgqa/memory.py)
    half_vectors: bool = (
        True  # KGQA_HALF_VECTORS: Kùzu's BLOB copy of new vectors as float16 (kgqa/vectorstores/raw.py)
    )
    store: str = DEFAULT_STORE  # where the HubLink index lives: kuzu | pgvector
    graph: str = "kuzu"  # where the graph lives: kuzu | postgres (docs/postgres-graph.md)
    pg_dsn: str | None = field(default=None, repr=False)  # Postgres DSN (may hold a password)
    index: str | None = None  # the index name in Postgres (None: from db_path; docs/databases.md)
    graph_schema: str | None = None  # your own graph views in Postgres (None: HubLink's tables; implies graph postgres)
    question_timeout_s: float = DEFAULT_QUESTION_TIMEOUT  # time budget of one question (docs/limits.md)
    embedder: str = "auto"  # embedding backend: auto | onnx | onnx-int8 | torch (docs/embedders.md)
    cache_dir: Path | None = None  # exported ONNX models (None: see cache_dir())

    def __post_init__(self) -> None:
        _positive("embedding_batch_size", self.embedding_batch_size, maximum=4_096)
        if self.graph not in GRAPHS:
            raise ConfigError(f"unknown graph placement '{self.graph}' (KGQA_GRAPH); known: {', '.join(GRAPHS)}")
        if self.graph == "postgres" and self.store != "pgvector":
            raise ConfigError(
                f"--graph postgres keeps the index in Postgres too: use --store pgvector, not --store {self.store}"
            )
        _seconds("question timeout (KGQA_QUESTION_TIMEOUT)", self.question_timeout_s, MAX_QUESTION_TIMEOUT)
        if self.graph_schema is not None:
            _check_graph_schema(self.graph_schema, self.graph)

    @property
    def data_dir(self) -> Path:
        """Directory next to the database for caches and auxiliary data."""
        return self.db_path.parent

    @property
    def service_path(self) -> Path:
        """What a running `kgqa serve` is recorded under (its state file is this path plus `.serve.json`,
        kgqa/serve_state.py): the Kùzu database; with the graph in Postgres, which has no Kùzu file,
        `<data dir>/<index>.postgres` (e.g. `.kgqa/demo.postgres.serve.json`)."""
        if self.graph == "postgres":
            return self.data_dir / f"{self.index_name}.postgres"
        return self.db_path

    @property
    def index_name(self) -> str:
        """The index's name in Postgres: `index`, else derived from the database path."""
        return index_name(self.index, self.db_path)

    @property
    def pg_data_dir(self) -> Path:
        """The data directory of the local Postgres (`kgqa pg start`)."""
        return self.data_dir / "pg"

    @property
    def llm_cache_file(self) -> Path | None:
        """The LLM response cache (sqlite), or None when caching is off."""
        if not self.llm.cache:
            return None
        return self.llm.cache_path or self.data_dir / "llm-cache.sqlite"

    @classmethod
    def from_env(cls, db_path: str | os.PathLike[str] | None = None, **overrides: Any) -> Settings:
        """Settings from explicit values, then `KGQA_*` environment variables, then defaults."""
        path = db_path or os.environ.get("KGQA_DB") or DEFAULT_DB
        model = (
            overrides.pop("embedding_model", None) or os.environ.get("KGQA_EMBEDDING_MODEL") or DEFAULT_EMBEDDING_MODEL
        )
        trace = overrides.pop("trace", None)
        if trace is None:
            trace = os.environ.get("KGQA_TRACE", "") not in ("", "0", "false")
        if "llm" not in overrides:
            overrides["llm"] = LLMSettings.from_env()
        if "ann" not in overrides:
            overrides["ann"] = AnnParams.from_env()
        if "buffer_pool_mib" not in overrides:
            overrides["buffer_pool_mib"] = _env_number("KGQA_BUFFER_POOL_MIB", int, None)
            _positive("KGQA_BUFFER_POOL_MIB", overrides["buffer_pool_mib"], allow_none=True, minimum=64)
        if not isinstance(overrides.get("memory"), MemoryCeiling):
            given = overrides.get("memory")
            overrides["memory"] = (
                MemoryCeiling.from_setting(str(given), "--memory")
                if given
                else MemoryCeiling.from_setting(os.environ.get("KGQA_MEMORY"))
            )
        if overrides.get("half_vectors") is None:
            overrides["half_vectors"] = os.environ.get("KGQA_HALF_VECTORS", "1").strip().lower() not in (
                "0",
                "false",
                "no",
                "off",
            )
        schema = overrides.get("graph_schema") or os.environ.get("KGQA_PG_GRAPH_SCHEMA", "").strip() or None
        overrides["graph_schema"] = schema
        # your own views are read from Postgres: they imply --graph postgres unless a graph is named
        graph = overrides.get("graph") or os.environ.get("KGQA_GRAPH", "").strip()
        overrides["graph"] = graph or ("postgres" if schema else "kuzu")
        # the graph in Postgres keeps its index there too (pgvector) unless a store is named
        store = overrides.get("store") or os.environ.get("KGQA_STORE")
        overrides["store"] = store or ("pgvector" if overrides["graph"] == "postgres" else DEFAULT_STORE)
        overrides["pg_dsn"] = overrides.get("pg_dsn") or os.environ.get("KGQA_PG_DSN") or None
        overrides["index"] = overrides.get("index") or os.environ.get("KGQA_INDEX", "").strip() or None
        if overrides.get("question_timeout_s") is None:
            overrides["question_timeout_s"] = _env_number("KGQA_QUESTION_TIMEOUT", float, DEFAULT_QUESTION_TIMEOUT)
        overrides["embedder"] = overrides.get("embedder") or os.environ.get("KGQA_EMBEDDER", "").strip() or "auto"
        overrides["cache_dir"] = overrides.get("cache_dir") or cache_dir()
        return cls(db_path=Path(path), embedding_model=model, trace=bool(trace), **overrides)


def _check_graph_schema(name: str, graph: str) -> None:
    """A ConfigError unless `name` is a plain lower-case schema name, not HubLink's own, read with the
    graph in Postgres."""
    if not _SCHEMA_NAME.fullmatch(name):
        raise ConfigError(f"{GRAPH_SCHEMA_SETTING}: {name!r} is not a schema name (a lower-case identifier)")
    if name == "kgqa" or name.startswith("kgqa_"):
        raise ConfigError(f"{GRAPH_SCHEMA_SETTING}: {name!r} is HubLink's own schema; name the schema of your views")
    if graph != "postgres":
        raise ConfigError(
            f"{GRAPH_SCHEMA_SETTING} ({name}) names your own graph views in Postgres: use it with --graph postgres"
        )


def cache_dir() -> Path:
    """The user cache for exported embedding models: $KGQA_CACHE_DIR, else $XDG_CACHE_HOME/kgqa, else
    ~/.cache/kgqa."""
    explicit = os.environ.get("KGQA_CACHE_DIR", "").strip()
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CACHE_HOME", "").strip()
    return (Path(base).expanduser() if base else Path.home() / ".cache") / "kgqa"


def serve_token(explicit: str | None = None) -> str | None:
    """The bearer token of `kgqa serve` and of its clients: `explicit`, else $KGQA_SERVE_TOKEN, else None."""
    return explicit or os.environ.get("KGQA_SERVE_TOKEN") or None


def _positive(
    name: str, value: int | None, *, allow_none: bool = False, minimum: int = 1, maximum: int | None = None
) -> None:
    """An integer within [minimum, maximum] (the documented range, docs/limits.md), else ConfigError."""
    if value is None and allow_none:
        return
    if (
        not isinstance(value, int)
        or isinstance(value, bool)
        or value < minimum
        or (maximum is not None and value > maximum)
    ):
        limit = f"between {minimum:,} and {maximum:,}" if maximum is not None else f">= {minimum:,}"
        raise ConfigError(f"{name} must be an integer {limit}, got {value!r}")


def _seconds(name: str, value: float, maximum: float) -> None:
    """A duration in seconds within (0, maximum], else ConfigError."""
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 < value <= maximum:
        raise ConfigError(f"{name} must be a number of seconds > 0 and <= {maximum:g}, got {value!r}")


#: Hub roots per path-enumeration query of a build or update (at least `hubs_per_batch`). Each query
#: pays about a second for its recursive join at 10^6 triples whatever its size: 200 roots took 9-11 ms
#: a root there, 1,000 roots 6 ms, 2,000 roots 4 ms (docs/scale.md). Changed hubs are still written
#: `hubs_per_batch` at a time.
ENUMERATED_ROOTS = 1_000


@dataclass(frozen=True)
class IndexParams:
    """Parameters of HubLink indexing (thesis §4.4–4.5). Thesis defaults."""

    hub_types: tuple[str, ...] = ("Paper",)
    min_out_degree: int | None = None  # degree-based criterion (out-degree >= n)
    criteria_mode: str = "any"  # how type and degree criteria combine: any | all
    start_ids: tuple[str, ...] = ()  # FINDHUBROOTS start entities; empty: every root in the graph
    max_path_length: int | None = None  # None: unlimited (bounded by MAX_PATH_LENGTH_LIMIT)
    max_indexing_depth: int = 10  # hub levels followed from the start entities
    uniform_hop_count: bool = False
    boundary_triples: bool = True  # keep the triple that reaches another hub root as a path end
    hubs_per_batch: int = 200  # hubs per write transaction (and at least this many roots per enumeration query)
    max_paths_per_hub: int = 5_000  # a super-node is indexed in part (docs/index-maintenance.md#super-nodes)

    #: Kùzu bounds variable-length patterns; "unlimited" path length means this bound.
    MAX_PATH_LENGTH_LIMIT = 30

    def __post_init__(self) -> None:
        object.__setattr__(self, "hub_types", tuple(self.hub_types))
        object.__setattr__(self, "start_ids", tuple(self.start_ids))
        if not self.hub_types and self.min_out_degree is None:
            raise ConfigError("give at least one hub-root criterion: a hub type or a minimum out-degree")
        if self.criteria_mode not in ("any", "all"):
            raise ConfigError(f"criteria_mode must be 'any' or 'all', got {self.criteria_mode!r}")
        _positive("min_out_degree", self.min_out_degree, allow_none=True, maximum=1_000_000)
        _positive("max_path_length", self.max_path_length, allow_none=True)
        if self.max_path_length is not None and self.max_path_length > self.MAX_PATH_LENGTH_LIMIT:
            raise ConfigError(f"max_path_length must be <= {self.MAX_PATH_LENGTH_LIMIT}, got {self.max_path_length}")
        _positive("max_indexing_depth", self.max_indexing_depth, minimum=0, maximum=100)
        _positive("hubs_per_batch", self.hubs_per_batch, maximum=10_000)
        _positive("max_paths_per_hub", self.max_paths_per_hub, maximum=1_000_000)

    @property
    def effective_max_path_length(self) -> int:
        """The bound used in the variable-length pattern."""
        return self.max_path_length or self.MAX_PATH_LENGTH_LIMIT

    def fingerprint(self) -> dict[str, Any]:
        """The parameters that determine the index content (stored as index metadata)."""
        return {
            "hub_types": sorted(self.hub_types),
            "min_out_degree": self.min_out_degree,
            "criteria_mode": self.criteria_mode,
            "start_ids": sorted(self.start_ids),
            "max_path_length": self.max_path_length,
            "max_indexing_depth": self.max_indexing_depth,
            "uniform_hop_count": self.uniform_hop_count,
            "boundary_triples": self.boundary_triples,
        }


STRATEGIES = ("traversal", "direct")
#: Ranges of the retrievers' integer parameters (`--param KEY=VALUE`): difar, simgrag, coe, hublink (direct).
EXTRA_BOUNDS: dict[str, tuple[int, int]] = {
    "top_n": (1, 10_000),
    "k": (1, 100),
    "k_nodes": (1, 1_000),
    "k_relations": (1, 1_000),
    "max_nodes": (1, 100_000),
    "max_hops": (1, 10),
    "text_hub_limit": (1, 1_000_000),
    "chains": (0, 1),  # 0: no relation chains (kgqa/retrieval/chains)
    "chain_fanout": (1, 1_000_000),  # triples one chain hop may read
    "exact": (0, 1),  # 0: keep the retrieved facts' answer (no exact answer from the whole graph)
    "parts": (0, 1),  # 0: a question that asks two things is answered whole (kgqa/question/parts.py)
}


@dataclass(frozen=True)
class RetrievalParams:
    """Parameters of HubLink retrieval (spec §5). Defaults are the thesis's final configuration."""

    strategy: str = "traversal"
    hubs_to_keep: int = 30
    paths_per_hub: int = 10
    use_components: bool = True
    diversity_penalty: float = 0.05
    path_weight_alpha: float = 5.0
    max_retrieval_level: int = 1
    uniform_hop_count: bool = False
    filter_output_triples: bool = True
    max_output_triples: int = 50
    scoring: str = "coverage"  # thesis: path score = best match; coverage: see retrieval/hublink/coverage.py
    hub_margin: float = 0.1  # coverage scoring: keep hubs within this of the best hub
    path_margin: float = 0.05  # coverage scoring: output paths within this of the hub's best
    topic_entity: str | None = None
    #: entities a relation chain's answer leaves out ("what *else* did she direct": the film asked about)
    exclude_entities: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.strategy not in STRATEGIES:
            raise ConfigError(f"strategy must be one of {', '.join(STRATEGIES)}, got {self.strategy!r}")
        _positive("hubs_to_keep (--hubs)", self.hubs_to_keep, maximum=1_000)
        _positive("paths_per_hub", self.paths_per_hub, maximum=1_000)
        _positive("max_retrieval_level", self.max_retrieval_level, maximum=10)
        _positive("max_output_triples", self.max_output_triples, maximum=10_000)
        for key, value in self.extra.items():  # retriever parameters (--param KEY=VALUE)
            if key not in EXTRA_BOUNDS:
                raise ConfigError(f"unknown retriever parameter {key!r}; known: {', '.join(EXTRA_BOUNDS)}")
            _positive(key, value, minimum=EXTRA_BOUNDS[key][0], maximum=EXTRA_BOUNDS[key][1])
        if not 0.0 <= self.diversity_penalty <= 1.0:
            raise ConfigError(f"diversity_penalty must be within [0, 1], got {self.diversity_penalty}")
        if self.scoring not in ("thesis", "coverage"):
            raise ConfigError(f"scoring must be 'thesis' or 'coverage', got {self.scoring!r}")
        if not 0.0 <= self.hub_margin <= 1.0 or not 0.0 <= self.path_margin <= 1.0:
            raise ConfigError("hub_margin and path_margin must be within [0, 1]")
        if not 0.0 <= self.path_weight_alpha <= 100.0:
            raise ConfigError(f"path_weight_alpha must be within [0, 100], got {self.path_weight_alpha}")
        if self.strategy == "traversal" and not self.topic_entity:
            pass  # resolved from the question at retrieval time (an addition to the thesis)

    def with_overrides(self, **overrides: Any) -> RetrievalParams:
        """A copy with the given (non-None) values replaced; unknown names are an error."""
        known = {f.name for f in fields(self)}
        unknown = set(overrides) - known
        if unknown:
            raise ConfigError(f"unknown retrieval parameter(s): {', '.join(sorted(unknown))}")
        return replace(self, **{k: v for k, v in overrides.items() if v is not None})
