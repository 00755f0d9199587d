"""Drawing the table: cards as inline SVG and one HTML picture per game position.

Nothing here imports plotly or ipywidgets, so ``Game._repr_html_`` stays cheap. The modules:

* :mod:`cardlab.viz.cards_svg`: one card (face, back, empty slot) as a self-contained SVG string;
* :mod:`cardlab.viz.table`: ``table_html(game, viewpoint)``, drawn only from what that seat may see.
"""

from cardlab.viz.cards_svg import card_html, card_svg, legend_html
from cardlab.viz.table import table_html

__all__ = ["card_html", "card_svg", "legend_html", "table_html"]
