"""Plotly plots in the page: one small hub widget per kernel draws every plot; plotly.js reaches the page once.

Why not ``go.FigureWidget``, nor a widget model per plot
--------------------------------------------------------
A ``FigureWidget`` is an anywidget whose JavaScript module is the whole plotly.js bundle (about
5 MB), sent over the kernel websocket and parsed once *per figure*.

anywidget gives every model two seconds, from the moment the page makes it, to load its module and
run its ``initialize``; a model that misses that limit logs "[anywidget] Failed to initialize
model." and silently drops every later update from the kernel. The page's main thread is what runs
those starts, and evaluating plotly.js is one long task on it (0.9–2.3 s measured in JupyterLab with
two CPU burners beside the browser, 5–6.5 s with the page's CPU also throttled 4×; see
docs/performance.md). So a plot model whose module was still loading when that task began could miss
its start and freeze; CI saw it happen.

The design here
---------------
* :class:`PlotlyLibrary` — the hub: the kernel's one anywidget model (:func:`library`), made before
  its first plot. It carries plotly.js as gzip bytes (about 1.5 MB instead of 4.8 MB) in a binary
  trait, plotly's default look (the template, the same for every figure) and a random ``key``. Its
  ``initialize`` only *starts* loading plotly.js (decompress with the page's ``DecompressionStream``,
  import as a module; the library is kept on ``globalThis`` under plotly's version, so the page loads
  it once however many kernels it shows), so the evaluation always comes after the hub's own start.
  The hub then watches the page (a ``MutationObserver``) for the plot sources its kernel's plots
  put there, and draws each with ``Plotly.react`` (which changes the drawn plot in place: no
  flicker).
* :class:`PlotView` — one per plot: an ordinary ``ipywidgets.HTML`` whose value is the plot's
  *source*, an inert ``<script type="application/json">`` element holding the figure's data and
  layout, tagged with the hub's key, the plot's key, its ``revision`` and its ``redraw`` count. No
  plot is an anywidget model, so no plot has a start to miss. When the kernel sends a new picture
  the HTML view replaces its content; the hub puts the same drawn plot (a ``.cardlab-plot`` box)
  back beside the new source in the same task, before the page paints, and redraws it in place.
* The hub needs no message from the kernel after it is made (its state arrives with it), so even a
  hub that missed its own start works: anywidget still runs its ``initialize`` when the module
  arrives. It sends the page's reports back as messages: ``drawn`` is the newest revision a view
  of the plot has drawn, ``error`` says why a draw failed (empty after a success). The stepper
  shows an error in its message area and offers a redraw (``redraw`` asks every view to throw its
  plot away and draw it anew).

Nothing here knows about games: :mod:`cardlab.viz.panels` decides what the figures show.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import math
import uuid
import weakref
from functools import lru_cache
from html import escape
from pathlib import Path
from typing import Any

import anywidget
import ipywidgets as widgets
import plotly
import plotly.io as pio
import traitlets

from cardlab.viz.still import still_html

PLOTLY_VERSION_KEY = "cardlab-plotly"
SOURCE_CLASS = "cardlab-plot-source"

# The hub's module. It starts loading plotly.js (once per page and plotly version) and returns at once;
# then it draws every plot source of its kernel that appears in the page, and reports back.
HUB_ESM = """
const CONFIG = { responsive: false, displaylogo: false, modeBarButtonsToRemove: ["select2d", "lasso2d"] };
const WAIT_MS = 90000;
const SOURCE = "%(source)s";

function slot(version) {
  const all = (globalThis.__cardlabPlotly ??= {});
  if (!all[version]) {
    let resolve, reject;
    const promise = new Promise((res, rej) => { resolve = res; reject = rej; });
    all[version] = { promise, resolve, reject, started: false };
  }
  return all[version];
}

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

function message(err) {
  return String((err && err.message) || err);
}

function initialize({ model }) {
  const hub = model.get("key");
  const entry = slot(model.get("version"));
  if (!entry.started) {
    entry.started = true;
    load(model, entry).catch((err) => entry.reject(err));
  }
  const selector = "." + SOURCE + "[data-hub='" + hub + "']";
  const views = new WeakMap();   // an HTML view's content element -> its drawn plot
  let Plotly = null;
  let failure = null;

  const report = (plot, drawn, error) => {
    try { model.send({ plot, drawn, error }); } catch (err) { /* the kernel is gone: nobody to tell */ }
  };
  const read = (source) => {
    try { return [JSON.parse(source.textContent), null]; } catch (err) { return [null, message(err)]; }
  };

  function sync(source) {
    const content = source.parentElement;
    if (!content) return;
    let view = views.get(content);
    if (!view) {
      const box = document.createElement("div");
      box.className = "cardlab-plot";
      box.textContent = "loading the plot…";
      const layout = (read(source)[0] || {}).layout || {};
      box.style.width = (layout.width || 480) + "px";
      box.style.minHeight = (layout.height || 300) + "px";
      view = { box, queue: Promise.resolve(), revision: null, redraw: null };
      views.set(content, view);
    }
    if (source.nextSibling !== view.box) source.after(view.box);   // back beside its new source
    if (!Plotly && !failure) return;   // drawn when plotly.js has loaded
    const plot = source.dataset.plot;
    const revision = Number(source.dataset.revision);
    const redraw = Number(source.dataset.redraw);
    const fresh = view.redraw !== redraw;
    if (!fresh && view.revision === revision) return;   // the same picture, moved
    view.revision = revision;
    view.redraw = redraw;
    const box = view.box;
    if (failure) {
      box.textContent = "The plot could not be drawn: " + failure;
      report(plot, null, "plotly.js could not be loaded in this page: " + failure);
      return;
    }
    const [fig, bad] = read(source);
    if (bad !== null) {
      report(plot, null, "the plot could not be drawn: " + bad);
      return;
    }
    const layout = Object.assign({}, fig.layout || {});
    layout.template = "template" in fig ? fig.template : model.get("template") || {};
    view.queue = view.queue.then(async () => {
      try {
        if (fresh) { Plotly.purge(box); box.textContent = ""; }
        await Plotly.react(box, fig.data || [], layout, CONFIG);
        report(plot, revision, "");
      } catch (err) {
        report(plot, null, "the plot could not be drawn: " + message(err));
      }
    });
  }

  const scan = (root) => { for (const source of root.querySelectorAll(selector)) sync(source); };
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node.nodeType !== 1) continue;
        if (node.classList.contains(SOURCE)) { if (node.matches(selector)) sync(node); }
        else if (node.getElementsByClassName(SOURCE).length) scan(node);
      }
    }
  });
  observer.observe(document.body, { childList: true, subtree: true });
  scan(document);

  let timer;
  const late = new Promise((_, rej) => {
    timer = setTimeout(() => rej(new Error("plotly.js did not load within " + WAIT_MS / 1000 + " s")), WAIT_MS);
  });
  Promise.race([entry.promise, late]).then(
    (lib) => { Plotly = lib; },
    (err) => { failure = message(err); },
  ).finally(() => { clearTimeout(timer); scan(document); });
  return () => { observer.disconnect(); clearTimeout(timer); };
}
export default { initialize };
""".replace("%(source)s", SOURCE_CLASS)


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


class PlotlyLibrary(anywidget.AnyWidget):
    """The kernel's plot hub: plotly.js for the page, and the drawing of every :class:`PlotView` of this
    kernel (see the module docstring). Never displayed."""

    _esm = traitlets.Unicode(HUB_ESM).tag(sync=True)
    key = traitlets.Unicode("").tag(sync=True)        # the plot sources this hub draws carry it
    version = traitlets.Unicode("").tag(sync=True)
    bundle = traitlets.Bytes(b"").tag(sync=True)
    template = traitlets.Dict().tag(sync=True)         # plotly's default look, for every plot of this kernel
    template_key = traitlets.Unicode("")               # its name (kernel side: a plot that uses it names it)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(key=uuid.uuid4().hex, **kwargs)
        self._plots: weakref.WeakValueDictionary[str, PlotView] = weakref.WeakValueDictionary()
        self.on_msg(self._on_page_message)

    def adopt(self, plot: PlotView) -> None:
        """Pass the page's reports on ``plot`` to it from now on."""
        self._plots[plot.plot_key] = plot

    def _on_page_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        self.receive(content)

    def receive(self, content: Any) -> None:
        """A page's report on one plot: ``{"plot": key, "drawn": revision or None, "error": text}``.

        A report on a plot this kernel no longer has, or one not of that shape, is ignored: it comes from
        the page, not from the student, and there is nothing to tell them."""
        if not isinstance(content, dict):
            return
        key = content.get("plot")
        plot = self._plots.get(key) if isinstance(key, str) else None
        if plot is None:
            return
        drawn, error = content.get("drawn"), content.get("error", "")
        with plot.hold_trait_notifications():
            if isinstance(drawn, int) and not isinstance(drawn, bool) and drawn >= 0:
                plot.drawn = drawn
            if isinstance(error, str):
                plot.error = error


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


def source_html(hub: str, plot: str, revision: int, redraw: int, payload: dict[str, Any]) -> str:
    """A plot's source in the page: an inert JSON script element the hub draws beside (module docstring).

    ``<`` is written ``\\u003c`` inside the JSON, so no text of a figure can end the element early."""
    text = json.dumps(payload, allow_nan=False, separators=(",", ":")).replace("<", "\\u003c")
    return (f'<script type="application/json" class="{SOURCE_CLASS}" data-hub="{escape(hub)}" '
            f'data-plot="{escape(plot)}" data-revision="{revision}" data-redraw="{redraw}">{text}</script>')


def _payload(figure: dict[str, Any], own: dict[str, Any] | None) -> dict[str, Any]:
    """What a plot's source holds: the figure's data and layout, and ``own``, the plot's template, unless it
    is None (the plot is drawn with the hub's template, which reaches the page once per kernel)."""
    payload: dict[str, Any] = {"data": figure.get("data", []), "layout": figure.get("layout", {})}
    if own is not None:
        payload["template"] = own
    return payload


class PlotView(widgets.HTML):  # type: ignore[misc]
    """One plot: figure JSON in, drawn in the page by the kernel's hub with ``Plotly.react``; the page's
    reports come back as ``drawn`` and ``error``.

    The widget is an ``HTML`` whose value is the plot's source (:func:`source_html`). While its owner
    defers it (:class:`~cardlab.viz.lifecycle.Deferral`), new pictures stay in the kernel; the page then
    gets the newest one only."""

    plot_key = traitlets.Unicode("")
    hub_key = traitlets.Unicode("")
    version = traitlets.Unicode("")
    figure = traitlets.Dict()
    template = traitlets.Dict()   # empty: the library's template named by template_key
    template_key = traitlets.Unicode("")
    revision = traitlets.Int(0)
    redraw = traitlets.Int(0)
    drawn = traitlets.Int(-1)     # set from the page's reports (PlotlyLibrary.receive)
    error = traitlets.Unicode("")

    def __init__(self, figure: dict[str, Any] | None = None, template: dict[str, Any] | None = None,
                 **kwargs: Any) -> None:
        lib = library()   # its model reaches the page before any plot's
        own = lib.template if template is None else clean(template)   # no template: plotly's default look
        if own == lib.template:   # the kernel's default look: the page has it from the library
            own, key = {}, lib.template_key
        else:
            key = ""
        fig, plot_key = clean(figure or {}), uuid.uuid4().hex
        first = source_html(lib.key, plot_key, 0, 0, _payload(fig, None if key else own))
        super().__init__(plot_key=plot_key, hub_key=lib.key, version=lib.version, figure=fig, template=own,
                         template_key=key, value=first,
                         _dom_classes=("cardlab-plot-view",), **kwargs)   # the first picture comes with the model
        lib.adopt(self)

    def _write_source(self) -> None:
        self.value = source_html(self.hub_key, self.plot_key, self.revision, self.redraw,
                                 _payload(self.figure, None if self.template_key else self.template))

    @property
    def look(self) -> dict[str, Any]:
        """The template the page draws this plot with (its own, or the library's)."""
        return dict(self.template) if self.template or not self.template_key else dict(library().template)

    def __repr__(self) -> str:
        """A short, stable text (a notebook's ``text/plain``): the plot's title, not its numbers."""
        title = self.figure.get("layout", {}).get("title", {})
        text = title.get("text", "") if isinstance(title, dict) else str(title)
        return f"PlotView({text!r})"

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        """The live plot, and a still picture (``text/html``) of the figure for pages that run no widgets."""
        data: dict[str, Any] = dict(super()._repr_mimebundle_(**kwargs) or {})
        data["text/html"] = still_html(self.figure)
        return data

    def show(self, figure: dict[str, Any]) -> None:
        """Send a new picture (``{"data": [...], "layout": {...}}``); the page redraws it in place."""
        self.figure = clean(figure)
        self.revision += 1
        self._write_source()

    def draw_again(self) -> None:
        """Ask every view to throw its plot away and draw the current figure anew (and forget old errors)."""
        self.error = ""
        self.redraw += 1
        self._write_source()

    @property
    def is_drawn(self) -> bool:
        """Whether a page has confirmed drawing the current revision."""
        return self.drawn == self.revision
