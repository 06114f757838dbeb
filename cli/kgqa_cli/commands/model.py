"""`kgqa model export|status`: the embedding model's ONNX export and which backend answers."""

from __future__ import annotations

import json
import time

import click

from kgqa.embeddings import check_backend, get_embedder
from kgqa.embeddings.model_files import read_model_files
from kgqa.embeddings.onnx_cache import VARIANTS, onnx_file
from kgqa.embeddings.onnx_export import can_export, export_model
from kgqa_cli.context import CliState, pass_state


@click.group()
def model() -> None:
    """The embedding model: export it to ONNX once, show the backend and the cache."""


@model.command("export")
@click.option("--int8", "int8", is_flag=True, help="Also write the per-channel int8 variant (KGQA_EMBEDDER=onnx-int8).")
@click.option("--force", is_flag=True, help="Export again even when the file is cached.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@pass_state
def export_cmd(state: CliState, int8: bool, force: bool, as_json: bool) -> None:
    """Export the embedding model to ONNX (needs torch, once) into the cache ($KGQA_CACHE_DIR)."""
    settings = state.settings()
    check_backend(settings.embedder)  # the setting the exported files serve must be a real one
    started = time.perf_counter()
    files = {
        v: str(export_model(settings.embedding_model, settings.cache_dir, v, force=force))
        for v in (("fp32", "int8") if int8 else ("fp32",))
    }
    seconds = round(time.perf_counter() - started, 2)
    if as_json:
        click.echo(json.dumps({"model": settings.embedding_model, "files": files, "seconds": seconds}))
        return
    for variant, path in files.items():
        click.echo(f"{variant}: {path}")
    state.info(f"done in {seconds:g} s; queries now use ONNX Runtime (KGQA_EMBEDDER=auto)")


@model.command("status")
@click.option("--json", "as_json", is_flag=True, help="Print the status as JSON.")
@pass_state
def status(state: CliState, as_json: bool) -> None:
    """Which embedder answers (KGQA_EMBEDDER), the cache folder and the ONNX files in it; loads nothing."""
    settings = state.settings()
    embedder = get_embedder(
        settings.embedding_model, settings.embedding_batch_size, settings.embedder, settings.cache_dir
    )
    files = read_model_files(settings.embedding_model)
    cached = {
        v: str(p) for v in VARIANTS if files is not None and (p := onnx_file(settings.cache_dir, files, v)).is_file()
    }
    data = {
        "model": settings.embedding_model,
        "setting": settings.embedder,
        "embedder": embedder.label,
        "vector_space": embedder.name,
        "cache_dir": str(settings.cache_dir),
        "onnx_files": cached,
        "can_export": can_export(),
    }
    if as_json:
        click.echo(json.dumps(data))
        return
    click.echo(
        f"model: {data['model']}\nembedder: {data['embedder']} (KGQA_EMBEDDER={data['setting']}; "
        "an index built with onnx-int8 is asked with it)\n"
        f"cache: {data['cache_dir']}\nONNX files: "
        + (", ".join(f"{v} {p}" for v, p in cached.items()) or "none (run `kgqa model export`)")
        + f"\ncan export here (torch installed): {'yes' if data['can_export'] else 'no'}"
    )
