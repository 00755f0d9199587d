"""One card as SVG: faces, pip layouts, court figures, backs, slots, colours, determinism."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest

from cardlab.cards import Card, Rank, Suit, full_deck
from cardlab.viz.cards_svg import (
    FOUR_COLOURS,
    PIP_LAYOUTS,
    PIP_SCALE,
    SUIT_PATHS,
    VIEW_H,
    VIEW_W,
    back_svg,
    card_html,
    card_svg,
    face_svg,
    legend_html,
    slot_svg,
)
from tests.viz import card_elements, one_card

SVG = "{http://www.w3.org/2000/svg}"
DECK = full_deck(1)


def suit_marks(svg: str, suit: Suit) -> int:
    """How many times the suit outline is drawn (pips, corner signs, frame signs)."""
    return svg.count(f'd="{SUIT_PATHS[suit]}"')


@pytest.mark.parametrize("card", DECK, ids=lambda c: c.code)
def test_every_face_is_well_formed_svg_with_its_code_and_indices(card: Card) -> None:
    svg = face_svg(card)
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("data-card") == card.code
    assert root.get("viewBox") == f"0 0 {VIEW_W} {VIEW_H}"
    rounded = [r for r in root.iter(f"{SVG}rect") if r.get("rx")]
    assert rounded, "a card has rounded corners"
    indices = [t.text for t in root.iter(f"{SVG}text") if t.get("font-size") == "19"]
    assert indices == [card.rank.label, card.rank.label], "rank index in two opposite corners"


@pytest.mark.parametrize("rank", range(1, 11))
def test_pip_cards_show_as_many_pips_as_their_rank(rank: int) -> None:
    for suit in Suit:
        svg = face_svg(Card(Rank(rank), suit))
        assert suit_marks(svg, suit) == rank + 2  # the pips and the two corner signs
        other = next(s for s in Suit if s != suit)
        assert suit_marks(svg, other) == 0


@pytest.mark.parametrize("rank", sorted(PIP_LAYOUTS))
def test_pip_layouts_fit_the_card_and_do_not_overlap(rank: int) -> None:
    pips = PIP_LAYOUTS[rank]
    assert len(pips) == rank
    half = 10 * PIP_SCALE
    for x, y in pips:
        assert x - half >= 20 and x + half <= VIEW_W - 20, "clear of the corner indices"
        assert y - half >= 15 and y + half <= VIEW_H - 15
    for i, (x1, y1) in enumerate(pips):
        for x2, y2 in pips[i + 1:]:
            assert math.dist((x1, y1), (x2, y2)) >= 2 * half, f"pips at {(x1, y1)} and {(x2, y2)} overlap"


@pytest.mark.parametrize("rank", [r for r in PIP_LAYOUTS if r not in (7, 9)])
def test_pip_layouts_look_the_same_upside_down(rank: int) -> None:
    """Real pip cards read the same either way up; the 7 and the 9, with one pip above the middle, are the
    traditional exceptions."""
    pips = {(round(x, 3), round(y, 3)) for x, y in PIP_LAYOUTS[rank]}
    turned = {(round(VIEW_W - x, 3), round(VIEW_H - y, 3)) for x, y in pips}
    assert pips == turned


def test_court_cards_have_distinct_framed_figures() -> None:
    faces = {}
    for rank in (Rank.JACK, Rank.QUEEN, Rank.KING):
        svg = face_svg(Card(rank, Suit.HEARTS))
        assert suit_marks(svg, Suit.HEARTS) == 4  # two corner signs, two in the frame
        assert 'transform="rotate(180 50 70)"' in svg  # double-ended figure
        assert f">{rank.label}</text>" in svg
        body = svg.split("<title>")[1].split("</title>")[1]
        faces[rank] = body.replace(f">{rank.label}<", "><")
    assert len(set(faces.values())) == 3, "J, Q and K must differ in more than their letter"


def test_backs_carry_no_trace_of_the_card() -> None:
    backs = {card_svg(c, face_down=True) for c in DECK}
    assert len(backs) == 1
    back = backs.pop()
    assert back == back_svg()
    root = ET.fromstring(back)
    assert root.get("data-facedown") == "1"
    assert "data-card" not in back
    assert card_svg(None, face_down=True) == back


def test_face_up_and_face_down_differ_at_a_glance() -> None:
    face = face_svg(Card.parse("7H"))
    back = back_svg()
    assert 'fill="#fff"' in face
    assert 'fill="#1d4f91"' in back and 'fill="#1d4f91"' not in face


def test_four_colour_deck_gives_each_suit_its_own_ink() -> None:
    for suit, colour in FOUR_COLOURS.items():
        assert f'fill="{colour}"' in face_svg(Card(Rank.FIVE, suit), four_colour=True)
    assert len(set(FOUR_COLOURS.values())) == 4
    two = {suit: face_svg(Card(Rank.FIVE, suit)) for suit in Suit}
    assert f'fill="{FOUR_COLOURS[Suit.DIAMONDS]}"' not in two[Suit.DIAMONDS]
    assert 'fill="#c8102e"' in two[Suit.DIAMONDS] and 'fill="#c8102e"' in two[Suit.HEARTS]
    assert f'fill="{FOUR_COLOURS[Suit.CLUBS]}"' not in two[Suit.CLUBS]


def test_output_is_deterministic_and_distinct_per_card() -> None:
    first = [face_svg(c, four_colour=True) for c in DECK]
    again = [face_svg(c, four_colour=True) for c in DECK]
    assert first == again
    assert len(set(first)) == 52


def test_second_pack_cards_show_their_face_only() -> None:
    """Two 7♥ from two packs look alike, so the page names the face and never the pack."""
    assert one_card(face_svg(Card.parse("7H:1")), data_card="7H")
    assert face_svg(Card.parse("7H:1")) == face_svg(Card.parse("7H"))


def test_highlight_and_hidden_states_are_marked() -> None:
    card = Card.parse("QS")
    plain = face_svg(card)
    lit = face_svg(card, highlight=True)
    assert 'data-highlight="1"' in lit and 'stroke="#ff9800"' in lit
    assert "data-highlight" not in plain and "#ff9800" not in plain
    hidden = face_svg(card, hidden=True)
    assert 'data-hidden="1"' in hidden and "stroke-dasharray" in hidden
    assert 'data-highlight="1"' in back_svg(highlight=True)


def test_slots_are_outlines_and_can_be_greyed_out() -> None:
    empty = card_svg(None)
    assert ET.fromstring(empty).get("data-empty") == "1"
    assert "stroke-dasharray" in empty and "data-card" not in empty and "data-facedown" not in empty
    greyed = slot_svg("unplayable", disabled=True, attrs={"data-spot": "seat0-10"})
    root = ET.fromstring(greyed)
    assert root.get("data-disabled") == "1" and root.get("data-spot") == "seat0-10"
    assert ">unplayable</text>" in greyed


def test_extra_attributes_are_escaped() -> None:
    svg = face_svg(Card.parse("AS"), attrs={"data-zone": 'a"<b>'})
    assert ET.fromstring(svg).get("data-zone") == 'a"<b>'


def test_width_scales_the_card_in_proportion() -> None:
    root = ET.fromstring(face_svg(Card.parse("AS"), width=70))
    assert float(root.get("width", "0")) == 70
    assert float(root.get("height", "0")) == pytest.approx(70 * VIEW_H / VIEW_W)


def test_card_html_wraps_a_card_with_an_escaped_caption() -> None:
    page = card_html(Card.parse("KS"), caption="play K<b> to pile 1", attrs={"data-move": "play KS"})
    assert one_card(page, data_card="KS")
    assert "play K&lt;b&gt; to pile 1" in page
    assert 'data-move="play KS"' in page
    assert card_elements(card_html(None), data_empty="1")
    assert card_elements(card_html(Card.parse("KS"), face_down=True), data_facedown="1")
    assert "data-card" not in card_html(Card.parse("KS"), face_down=True)
    ET.fromstring(page)


def test_legend_names_every_suit_and_its_colour() -> None:
    text = legend_html()
    for word in ("spades: black", "hearts: red", "diamonds: blue", "clubs: green"):
        assert word in text
    for suit, colour in FOUR_COLOURS.items():
        assert f'fill="{colour}"' in text and f'd="{SUIT_PATHS[suit]}"' in text
    assert "diamonds: red" in legend_html(four_colour=False)
    ET.fromstring(text)


def test_shared_backs_keep_each_card_element_and_leave_the_picture_to_one_css_rule() -> None:
    from urllib.parse import unquote

    from cardlab.viz.cards_svg import BACK_COLOUR, BACK_TITLE, back_css, share_backs

    face = face_svg(Card.parse("7H"))
    plain, lit = back_svg(attrs={"data-zone": "stock"}), back_svg(highlight=True)
    other = back_svg(colour="#8b0000")
    page = share_backs(face + plain + lit + other + slot_svg("x"))
    cards = card_elements(page)
    assert [c.get("data-facedown") for c in cards] == [None, "1", "1", "1", None]
    assert cards[1]["data-zone"] == "stock" and cards[2]["data-highlight"] == "1"
    assert page.startswith(face) and page.endswith(other + slot_svg("x")), "faces, other backs and slots untouched"
    emptied = page[len(face):len(page) - len(other + slot_svg("x"))]
    assert emptied.count(BACK_TITLE) == 2 and "<path" not in emptied, "no drawing left in the shared backs"
    assert 'stroke="#ff9800"' in emptied, "the highlight rim stays on the card"
    drawing = plain[plain.index(BACK_TITLE) + len(BACK_TITLE):-len("</svg>")]
    assert len(plain) - len(share_backs(plain)) == len(drawing) > 700
    rule = back_css(".cardlab-stepper")
    assert rule.startswith(".cardlab-stepper svg.cl-card[data-facedown]{background:url(")
    assert rule.endswith('") 0 0/100% 100% no-repeat}')
    picture = unquote(rule[rule.index("data:image/svg+xml,") + 19:rule.rindex('")')])
    head = f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {VIEW_W} {VIEW_H}'>"
    assert picture == head + drawing.replace('"', "'") + "</svg>" and "'" not in drawing
    assert BACK_COLOUR in picture and "#8b0000" not in picture
