"""One Plotly plot in the page, drawn by a small widget of ours; plotly.js reaches the page once.

Why not ``go.FigureWidget``
---------------------------
A ``FigureWidget`` is an anywidget whose JavaScript module is the whole plotly.js bundle (about
5 MB), sent over the kernel websocket and parsed once *per figure*. A stepper has two figures, so a
notebook with three steppers sent about 30 MB and parsed plotly.js six times; on a busy machine a
figure's module could miss anywidget's two-second start-up limit, and that figure then silently
dropped every update.

The design here
---------------
* :class:`PlotlyLibrary` — one model per kernel (:func:`library`), created before the first plot.
  It carries plotly.js as gzip bytes (about 1.5 MB instead of 4.8 MB) in a binary trait. Its
  JavaScript module is a few hundred bytes, so it starts at once; its ``initialize`` only *starts*
  the work (decompress with the page's ``DecompressionStream``, import as a module) and returns, and
  the loaded library is kept on ``globalThis`` under plotly's version, so the page loads it once
  however many plots and kernels it shows.
* :class:`PlotView` — one per plot, also with a tiny module. It holds the figure as JSON (``data``
  and ``layout``). The template (plotly's default look, about 7 KB, the same for every figure)
  travels once per kernel, with the library; a plot names it by ``template_key`` (a plot with
  another template carries its own). Its view
  waits for the library *inside* ``render`` (never blocking anywidget's start), draws with
  ``Plotly.react`` (which changes the drawn plot in place: no flicker), and redraws on each new
  ``revision``.
* The page reports back: ``drawn`` is the newest revision a view has drawn, ``error`` says why a
  draw failed (empty after a success). The stepper shows an error in its message area and offers a
  redraw (``redraw`` asks every view to throw its plot away and draw it anew).

Nothing here knows about games: :mod:`cardlab.viz.panels` decides what the figures show.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import math
from functools import lru_cache
from pathlib import Path
from typing import Any

import anywidget
import plotly
import plotly.io as pio
import traitlets

from cardlab.viz.lifecycle import Deferred

PLOTLY_VERSION_KEY = "cardlab-plotly"

# The library's module: start loading plotly.js (once per page and plotly version) and return at once.
_SLOT_JS = """
function slot(version) {
  const all = (globalThis.__cardlabPlotly ??= {});
  if (!all[version]) {
    let resolve, reject;
    const promise = new Promise((res, rej) => { resolve = res; reject = rej; });
    all[version] = { promise, resolve, reject, started: false, looks: {} };
  }
  return all[version];
}
function look(entry, key) {
  // the template a library model of this page brought under `key`, as a promise
  if (!entry.looks[key]) {
    let resolve;
    const promise = new Promise((res) => { resolve = res; });
    entry.looks[key] = { promise, resolve };
  }
  return entry.looks[key];
}
"""

LIBRARY_ESM = _SLOT_JS + """
async function load(model, entry) {
  const view = model.get("bundle");
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  const text = await new Response(stream).text();
  // plotly.min.js is a UMD bundle: given a `module` it fills module.exports (and sets window.Plotly)
  const source = "const module = { exports: {} };\\n" + text + "\\nexport default module.exports;\\n";
  const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  try {
    const mod = await import(/* webpackIgnore: true */ url);
    entry.resolve(mod.default);
  } finally {
    URL.revokeObjectURL(url);
  }
}
function initialize({ model }) {
  const entry = slot(model.get("version"));
  if (model.get("template_key")) look(entry, model.get("template_key")).resolve(model.get("template"));
  if (entry.started) return;
  entry.started = true;
  load(model, entry).catch((err) => entry.reject(err));
}
export default { initialize };
"""

PLOT_ESM = _SLOT_JS + """
const CONFIG = { responsive: false, displaylogo: false, modeBarButtonsToRemove: ["select2d", "lasso2d"] };
const WAIT_MS = 90000;

function report(model, drawn, error) {
  let changed = false;
  if (drawn !== null && model.get("drawn") !== drawn) { model.set("drawn", drawn); changed = true; }
  if (model.get("error") !== error) { model.set("error", error); changed = true; }
  if (changed) model.save_changes();
}

function figure(model, shared) {
  const fig = model.get("figure") || {};
  const layout = Object.assign({}, fig.layout || {});
  const own = model.get("template");
  layout.template = own && Object.keys(own).length ? own : (shared || {});
  return { data: fig.data || [], layout };
}

async function render({ model, el }) {
  const box = document.createElement("div");
  box.className = "cardlab-plot";
  const size = figure(model).layout;
  box.style.width = (size.width || 480) + "px";
  box.style.minHeight = (size.height || 300) + "px";
  box.textContent = "loading the plot…";
  el.appendChild(box);
  let Plotly = null;
  let shared = null;
  let queue = Promise.resolve();
  let alive = true;
  const draw = (fresh) => {
    queue = queue.then(async () => {
      if (!alive || !Plotly) return;
      const revision = model.get("revision");
      try {
        const fig = figure(model, shared);
        if (fresh) { Plotly.purge(box); box.textContent = ""; }
        await Plotly.react(box, fig.data, fig.layout, CONFIG);
        report(model, revision, "");
      } catch (err) {
        report(model, null, "the plot could not be drawn: " + String(err && err.message || err));
      }
    });
  };
  const onRevision = () => draw(false);
  const onRedraw = () => draw(true);
  model.on("change:revision", onRevision);
  model.on("change:redraw", onRedraw);
  try {
    const entry = slot(model.get("version"));
    let timer;
    const late = new Promise((_, rej) => {
      timer = setTimeout(() => rej(new Error("plotly.js did not load within " + WAIT_MS / 1000 + " s")), WAIT_MS);
    });
    const key = model.get("template_key");
    const [lib, template] = await Promise.race([
      Promise.all([entry.promise, key ? look(entry, key).promise : null]), late]);
    Plotly = lib;
    shared = template;
    clearTimeout(timer);
  } catch (err) {
    box.textContent = "The plot could not be drawn: " + String(err && err.message || err);
    report(model, null, "plotly.js could not be loaded in this page: " + String(err && err.message || err));
    return () => { alive = false; model.off("change:revision", onRevision); model.off("change:redraw", onRedraw); };
  }
  draw(true);
  return () => {
    alive = false;
    model.off("change:revision", onRevision);
    model.off("change:redraw", onRedraw);
    if (Plotly) Plotly.purge(box);
  };
}
export default { render };
"""


@lru_cache(maxsize=1)
def plotly_bundle() -> bytes:
    """plotly.js as shipped by the plotly package, gzip-compressed (read and compressed once per kernel)."""
    path = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
    return gzip.compress(path.read_bytes(), compresslevel=9, mtime=0)


def plotly_js_version() -> str:
    """The version of the plotly.js bundle, read from its first comment (``plotly.js vX.Y.Z``)."""
    path = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
    with path.open(encoding="utf-8") as f:
        head = f.read(200)
    marker = "plotly.js v"
    start = head.find(marker)
    if start < 0:
        return f"py{plotly.__version__}"
    end = start + len(marker)
    while end < len(head) and (head[end].isalnum() or head[end] in ".-"):
        end += 1
    return head[start + len(marker):end]


class PlotlyLibrary(anywidget.AnyWidget):  # type: ignore[misc]
    """plotly.js for the page, sent once per kernel (see the module docstring). Never displayed."""

    _esm = traitlets.Unicode(LIBRARY_ESM).tag(sync=True)
    version = traitlets.Unicode("").tag(sync=True)
    bundle = traitlets.Bytes(b"").tag(sync=True)
    template = traitlets.Dict().tag(sync=True)         # plotly's default look, for every plot of this kernel
    template_key = traitlets.Unicode("").tag(sync=True)


_LIBRARY: PlotlyLibrary | None = None


def library() -> PlotlyLibrary:
    """The kernel's one :class:`PlotlyLibrary` (made on first use, made again if it was closed)."""
    global _LIBRARY
    if _LIBRARY is None or _LIBRARY.comm is None:
        template = clean(default_template())
        _LIBRARY = PlotlyLibrary(version=plotly_js_version(), bundle=plotly_bundle(), template=template,
                                 template_key=template_key(template))
    return _LIBRARY


def default_template() -> dict[str, Any]:
    """The look of every figure (plotly's default template); it reaches the page once per kernel, with the library."""
    name = pio.templates.default
    template = pio.templates[name if isinstance(name, str) and name in pio.templates else "plotly"]
    return dict(template.to_plotly_json())


def template_key(template: dict[str, Any]) -> str:
    """A short name for a template's content (a page may show plots of kernels with different templates)."""
    return hashlib.sha256(json.dumps(template, sort_keys=True).encode()).hexdigest()[:16]


def clean(value: Any) -> Any:
    """``value`` with every NaN or infinity replaced by None (JSON has no NaN; the page would refuse it)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [clean(v) for v in value]
    return value


class PlotView(Deferred, anywidget.AnyWidget):  # type: ignore[misc]
    """One plot: figure JSON in, drawn in the page with ``Plotly.react``; ``drawn``/``error`` come back.

    While its owner defers it (:class:`~cardlab.viz.lifecycle.Deferred`), new pictures stay in the kernel;
    the page then gets the newest one only."""

    deferred_traits = ("figure", "revision")

    _esm = traitlets.Unicode(PLOT_ESM).tag(sync=True)
    version = traitlets.Unicode("").tag(sync=True)
    figure = traitlets.Dict().tag(sync=True)
    template = traitlets.Dict().tag(sync=True)   # empty: the library's template named by template_key
    template_key = traitlets.Unicode("").tag(sync=True)
    revision = traitlets.Int(0).tag(sync=True)
    redraw = traitlets.Int(0).tag(sync=True)
    drawn = traitlets.Int(-1).tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)

    def __init__(self, figure: dict[str, Any] | None = None, template: dict[str, Any] | None = None,
                 **kwargs: Any) -> None:
        lib = library()   # its model reaches the page before any plot's
        own = clean(template or {})
        if own == lib.template:   # the kernel's default look: the page has it from the library
            own, key = {}, lib.template_key
        else:
            key = ""
        super().__init__(version=lib.version, figure=clean(figure or {}), template=own, template_key=key, **kwargs)

    @property
    def look(self) -> dict[str, Any]:
        """The template the page draws this plot with (its own, or the library's)."""
        return dict(self.template) if self.template or not self.template_key else dict(library().template)

    def __repr__(self) -> str:
        """A short, stable text (a notebook's ``text/plain``): the plot's title, not its numbers."""
        title = self.figure.get("layout", {}).get("title", {})
        text = title.get("text", "") if isinstance(title, dict) else str(title)
        return f"PlotView({text!r})"

    def show(self, figure: dict[str, Any]) -> None:
        """Send a new picture (``{"data": [...], "layout": {...}}``); the page redraws it in place."""
        with self.hold_sync():
            self.figure = clean(figure)
            self.revision += 1

    def draw_again(self) -> None:
        """Ask every view to throw its plot away and draw the current figure anew (and forget old errors)."""
        with self.hold_sync():
            self.error = ""
            self.redraw += 1

    @property
    def is_drawn(self) -> bool:
        """Whether a page has confirmed drawing the current revision."""
        return self.drawn == self.revision
