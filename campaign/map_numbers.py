"""The map editor without JavaScript: the same scenario document as plain numbers in a form.

One fieldset per piece — the table, each side (its name, its deployment zone's corners, its
spots), each terrain piece (its kind and corners), each building (its library card and
corners), each objective — plus blank ones to add a piece. Corners and spots are written
``x,y`` in inches, separated by spaces or semicolons (``0,0 24,0 24,6 0,6``). ``scenario()``
builds the document the drawn editor would; ``pin()`` puts each of the engine's problems (its
path) on the field of the piece it names.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence
from typing import Any

from django import forms
from django.forms.utils import ErrorDict

from battles.engine.loader import TABLE_SIDE
from battles.engine.validation import (
    MAX_BUILDINGS,
    MAX_CORNERS,
    MAX_OBJECTIVES,
    MAX_POINTS,
    MAX_TABLE,
    MAX_TERRAIN,
)
from battles.forms import WholeNumberField
from campaign.forms import map_name
from campaign.rules.values import TURN_LIMIT_MAX
from units.words import quoted

MIN_TABLE = 6
"""Inches on either side of the smallest table the editors draw: room for two deployment zones."""
SIDE_SHOWN = f"{TABLE_SIDE:g}"
"""A table's side when the map gives none, as the form shows it ("24", not "24.0")."""
TABLE_SIDES = {
    "min_value": f"A table is at least {MIN_TABLE} inches a side.",
    "max_value": f"A table is at most {MAX_TABLE:g} inches a side (an eight-foot table).",
}
"""What the numbers form says of a table too small or too big for a battle."""
BLANK_ROWS = {"terrain": 2, "building": 1, "objective": 1}
"""Empty fieldsets after the pieces a map has, to add pieces without JavaScript (save, and the
page offers new blank ones)."""
LIMITS = {"terrain": MAX_TERRAIN, "building": MAX_BUILDINGS, "objective": MAX_OBJECTIVES}
SIDES = (("attackers", "Attackers"), ("defenders", "Defenders"))
"""The two sides of a new map, as the drawn editor starts them."""


def parse_points(text: str) -> list[list[float]]:
    """``"0,0 24,0; 24,6"`` → ``[[0, 0], [24, 0], [24, 6]]``; a ValueError says what is wrong."""
    points = []
    for n, pair in enumerate(p for p in re.split(r"[;\s]+", text.strip()) if p):
        x, comma, y = pair.partition(",")
        try:
            if not comma:
                raise ValueError
            points.append([_number(x), _number(y)])
        except ValueError:
            raise ValueError(f"point {n + 1} ({quoted(pair)}) is not x,y in inches") from None
        if len(points) > MAX_CORNERS:
            raise ValueError(f"at most {MAX_CORNERS} points")
    return points


def _number(text: str) -> float:
    value = float(text)
    if value != value or abs(value) == float("inf"):
        raise ValueError
    return int(value) if value == int(value) else value


def points_text(points: Any) -> str:
    if not isinstance(points, list):
        return ""
    return " ".join(
        f"{_show(p[0])},{_show(p[1])}" for p in points if isinstance(p, list) and len(p) == 2
    )


def _show(value: Any) -> str:
    return f"{value:g}" if isinstance(value, (int, float)) else str(value)


class PointsField(forms.CharField):
    """Corners or spots as ``x,y`` pairs."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("max_length", 4000)
        super().__init__(**kwargs)

    def clean(self, value: Any) -> Any:
        text = super().clean(value)
        try:
            return parse_points(text)
        except ValueError as error:
            raise forms.ValidationError(str(error)) from None


def _table_side(label: str) -> forms.FloatField:
    """A side of the table, in inches, within what the engine takes."""
    return forms.FloatField(
        min_value=MIN_TABLE,
        max_value=MAX_TABLE,
        initial=SIDE_SHOWN,
        label=label,
        error_messages=TABLE_SIDES,
    )


class MapNumbersForm(forms.Form):
    """A map as numbers; ``scenario`` (a document, or None for a new map) fills it."""

    numbers = forms.CharField(widget=forms.HiddenInput, initial="1")
    name = map_name()
    table_width = _table_side("Width (in)")
    table_height = _table_side("Height (in)")
    turn_limit = forms.IntegerField(min_value=1, max_value=TURN_LIMIT_MAX, initial=6)

    def __init__(
        self,
        data: Any = None,
        *,
        scenario: dict[str, Any] | None,
        palette: Sequence[tuple[str, str]],
        buildings: Sequence[Any],
        ruleset: str,
        spot_card: dict[str, Any],
    ) -> None:
        super().__init__(data)
        scenario = scenario if isinstance(scenario, dict) else {}
        self.ruleset = ruleset
        self.spot_card = spot_card
        self.palette = palette
        self.buildings = buildings
        self.cards = {str(b.pk): b for b in buildings}
        table = scenario.get("table") if isinstance(scenario.get("table"), dict) else {}
        self.fields["name"].initial = scenario.get("name", "")
        self.fields["table_width"].initial = table.get("width", SIDE_SHOWN)
        self.fields["table_height"].initial = table.get("height", SIDE_SHOWN)
        self.fields["turn_limit"].initial = scenario.get("turn_limit", 6)
        sides = [s for s in scenario.get("sides", []) if isinstance(s, dict)][:2]
        self.side_ids = [str(s.get("id") or SIDES[i][0]) for i, s in enumerate(sides)]
        self.side_ids += [sid for sid, _ in SIDES[len(self.side_ids) :]]
        for i in range(len(self.side_ids)):
            side = sides[i] if i < len(sides) else {}
            units = [u.get("position") for u in side.get("units", []) if isinstance(u, dict)]
            self.fields[f"side_{i}_name"] = forms.CharField(
                max_length=60, initial=side.get("name") or SIDES[i][1], label="Name"
            )
            self.fields[f"side_{i}_zone"] = PointsField(
                initial=points_text(side.get("zone")),
                label="Deployment zone corners",
                help_text="Blank: no zone, the side deploys anywhere it may stand.",
            )
            self.fields[f"side_{i}_spots"] = PointsField(
                initial=points_text(units), label="Deployment spots"
            )
        side_choices = [(sid, self._side_name(i, sides)) for i, sid in enumerate(self.side_ids)]
        kinds = [("", "— none (remove) —"), *palette]
        cards = [("", "— none (remove) —"), *((str(b.pk), b.name) for b in buildings)]
        by_name = {b.name: str(b.pk) for b in buildings}
        terrain = self._rows("terrain", scenario.get("terrain"))
        for i, piece in enumerate(terrain):
            self.fields[f"terrain_{i}_kind"] = forms.ChoiceField(
                choices=kinds, required=False, initial=piece.get("kind", ""), label="Kind"
            )
            self.fields[f"terrain_{i}_corners"] = PointsField(
                initial=points_text(piece.get("polygon")), label="Corners"
            )
        for i, piece in enumerate(self._rows("building", scenario.get("buildings"))):
            card = piece.get("card") if isinstance(piece.get("card"), dict) else {}
            self.fields[f"building_{i}_card"] = forms.ChoiceField(
                choices=cards, required=False, initial=by_name.get(card.get("name"), ""),
                label="Building",
            )  # fmt: skip
            self.fields[f"building_{i}_corners"] = PointsField(
                initial=points_text(piece.get("polygon")), label="Corners"
            )
        for i, piece in enumerate(self._rows("objective", scenario.get("objectives"))):
            point = piece.get("point") if isinstance(piece.get("point"), list) else [None, None]
            held = piece.get("sides") if isinstance(piece.get("sides"), list) else []
            new = f"objective-{i + 1}"
            fields = {
                "id": forms.CharField(max_length=60, required=False, initial=piece.get("id", new),
                                      label="Name"),
                "x": forms.FloatField(required=False, initial=point[0], label="x (in)",
                                      help_text="Blank: no objective."),
                "y": forms.FloatField(required=False, initial=point[1], label="y (in)"),
                "radius": forms.FloatField(required=False, initial=piece.get("radius", 3),
                                           label="Radius (in)"),
                "side": forms.ChoiceField(choices=side_choices, required=False,
                                          initial=held[0] if held else self.side_ids[0],
                                          label="Held by"),
                "per_turn": WholeNumberField(counts="point", min_value=0, max_value=MAX_POINTS,
                                             required=False,
                                             initial=piece.get("points_per_turn", 1),
                                             label="Points a turn"),
                "at_end": WholeNumberField(counts="point", min_value=0, max_value=MAX_POINTS,
                                           required=False, initial=piece.get("points_at_end", 3),
                                           label="Points at the end"),
            }  # fmt: skip
            for key, field in fields.items():
                self.fields[f"objective_{i}_{key}"] = field
        self.rows = {
            "terrain": len(terrain),
            "building": self._count("building"),
            "objective": self._count("objective"),
        }
        self.placed: dict[str, list[int]] = {}
        self.named: dict[str, str] = {}
        """The page's name for each piece ("Terrain 3"), by the id ``scenario`` made for it."""

    def _side_name(self, i: int, sides: list[dict[str, Any]]) -> str:
        name = self.data.get(f"side_{i}_name") if self.is_bound else None
        name = name or (sides[i].get("name") if i < len(sides) else None) or SIDES[i][1]
        return f"Side {i + 1} ({name})"

    def with_more_rows(self) -> MapNumbersForm:
        """The same posted form with another blank piece of each kind (nothing is saved), its
        fields shown as written and judged not at all: asking for rows is not sending the map,
        which may be half written (no name yet); Save judges it."""
        data = self.data.copy()
        for kind, blank in BLANK_ROWS.items():
            data[f"{kind}_rows"] = str(self.rows[kind] + blank)
        more = MapNumbersForm(
            data,
            scenario=None,
            palette=self.palette,
            buildings=self.buildings,
            ruleset=self.ruleset,
            spot_card=self.spot_card,
        )
        more._errors = ErrorDict()  # a form with its errors known, and none: it is not cleaned
        return more

    def _rows(self, kind: str, pieces: Any) -> list[dict[str, Any]]:
        """The map's pieces of this kind, then blank rows; a posted form keeps its own count."""
        have = [p for p in pieces if isinstance(p, dict)] if isinstance(pieces, list) else []
        count = len(have) + BLANK_ROWS[kind]
        if self.is_bound:
            with contextlib.suppress(TypeError, ValueError):
                count = int(self.data.get(f"{kind}_rows", count))
        count = max(0, min(count, LIMITS[kind] + BLANK_ROWS[kind]))
        self.fields[f"{kind}_rows"] = forms.IntegerField(widget=forms.HiddenInput, initial=count)
        return (have + [{}] * count)[:count]

    def _count(self, kind: str) -> int:
        return self.fields[f"{kind}_rows"].initial

    def clean(self) -> dict[str, Any]:
        """A piece half given is refused on the field it lacks, in words, before the engine
        would name it by its path ("must be a non-empty string", "must be a number, got
        null"): a terrain piece's kind, a building's card, an objective's other coordinate.
        A piece left wholly blank is none."""
        data = super().clean()
        for i in range(self.rows["terrain"]):
            kind, corners = f"terrain_{i}_kind", f"terrain_{i}_corners"
            if data.get(corners) and not data.get(kind) and kind not in self.errors:
                self.add_error(kind, "Choose its kind, or clear its corners to remove it.")
        for i in range(self.rows["building"]):
            card, corners = f"building_{i}_card", f"building_{i}_corners"
            if data.get(corners) and not data.get(card) and card not in self.errors:
                self.add_error(card, "Choose its building, or clear its corners to remove it.")
        for i in range(self.rows["objective"]):
            x, y = f"objective_{i}_x", f"objective_{i}_y"
            if x in self.errors or y in self.errors:
                continue
            if (data.get(x) is None) != (data.get(y) is None):
                lacking = x if data.get(x) is None else y
                other = "y" if lacking == x else "x"
                self.add_error(lacking, f"Give it as well as {other}, or clear both to remove "
                                        "the objective.")  # fmt: skip
        return data

    # --- what the template draws -------------------------------------------------------------

    def pieces(self) -> list[tuple[str, str, list[Any]]]:
        """(anchor, legend, bound fields) for each fieldset, in the page's order."""
        out = [("map-table", "Table", [self["table_width"], self["table_height"],
                                       self["turn_limit"]])]  # fmt: skip
        for i in range(len(self.side_ids)):
            keys = ("name", "zone", "spots")
            out.append((f"map-side-{i}", f"Side {i + 1}", [self[f"side_{i}_{k}"] for k in keys]))
        for kind, legend, keys in (
            ("terrain", "Terrain", ("kind", "corners")),
            ("building", "Building", ("card", "corners")),
            ("objective", "Objective", ("id", "x", "y", "radius", "side", "per_turn", "at_end")),
        ):
            for i in range(self.rows[kind]):
                fields = [self[f"{kind}_{i}_{k}"] for k in keys]
                out.append((f"map-{kind}-{i}", f"{legend} {i + 1}", fields))
        return out

    def hidden_rows(self) -> list[Any]:
        return [self[f"{kind}_rows"] for kind in self.rows]

    # --- the document -----------------------------------------------------------------------

    def scenario(self) -> dict[str, Any]:
        """The scenario document the fields describe (a valid form only); remembers which row
        each piece came from, for ``pin``."""
        data = self.cleaned_data
        self.placed = {"terrain": [], "building": [], "objective": []}
        self.named = {}
        terrain, buildings, objectives = [], [], []
        for i in range(self.rows["terrain"]):
            kind, corners = data.get(f"terrain_{i}_kind"), data.get(f"terrain_{i}_corners")
            if kind or corners:
                terrain.append({"id": f"{kind or 'terrain'}-{i + 1}", "kind": kind or "",
                                "polygon": corners or []})  # fmt: skip
                self.placed["terrain"].append(i)
                self.named[terrain[-1]["id"]] = f"Terrain {i + 1}"
        for i in range(self.rows["building"]):
            pick, corners = data.get(f"building_{i}_card"), data.get(f"building_{i}_corners")
            if pick or corners:
                card = self.cards[pick].card if pick in self.cards else {}
                name = self.cards[pick].name if pick in self.cards else "building"
                slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
                buildings.append({"id": f"{slug}-{i + 1}", "card": card,
                                  "polygon": corners or []})  # fmt: skip
                self.placed["building"].append(i)
                self.named[buildings[-1]["id"]] = f"Building {i + 1}"
        for i in range(self.rows["objective"]):
            x, y = data.get(f"objective_{i}_x"), data.get(f"objective_{i}_y")
            if x is None and y is None:
                continue
            objectives.append({
                "id": data.get(f"objective_{i}_id") or f"objective-{i + 1}",
                "kind": "hold",
                "point": [x, y],
                "radius": data.get(f"objective_{i}_radius") or 3,
                "sides": [data.get(f"objective_{i}_side") or self.side_ids[0]],
                "points_per_turn": data.get(f"objective_{i}_per_turn") or 0,
                "points_at_end": data.get(f"objective_{i}_at_end") or 0,
            })  # fmt: skip
            self.placed["objective"].append(i)
        sides = []
        for s, sid in enumerate(self.side_ids):
            side: dict[str, Any] = {"id": sid, "name": data.get(f"side_{s}_name") or sid}
            if data.get(f"side_{s}_zone"):
                side["zone"] = data[f"side_{s}_zone"]
            side["units"] = [
                {"id": f"{sid}-spot-{n + 1}", "position": p, "card": self.spot_card}
                for n, p in enumerate(data.get(f"side_{s}_spots") or [])
            ]
            sides.append(side)
        return {
            "name": data["name"],
            "ruleset": self.ruleset,
            "table": {"width": data["table_width"], "height": data["table_height"]},
            "turn_limit": data["turn_limit"],
            "terrain": terrain,
            "buildings": buildings,
            "objectives": objectives,
            "sides": sides,
        }

    def pin(self, path: str, reason: str) -> None:
        """An engine problem (``path``, ``reason``) on the field of the piece it names (which
        spot, for a side's spots); the map as a whole's at the top of the form. A piece the
        reason names by the id this form gave it is named as the page names it ("Terrain 2",
        not 'water-2')."""
        for piece_id, name in self.named.items():
            reason = reason.replace(f"'{piece_id}'", f"({name})")
        field = self._field_of(path)
        if field is not None and field.endswith("_radius") and "greater than 0" in reason:
            reason = "A radius is more than 0 inches."  # the engine's: "must be greater than 0"
        if field is None:
            self.add_error(None, f"{path}: {reason}" if path else reason)
        else:
            self.add_error(field, _spot_of(path) + reason)

    def _field_of(self, path: str) -> str | None:
        if path in ("table.width", "table.height"):
            return path.replace(".", "_")
        if path == "turn_limit":
            return path
        if match := re.match(r"(terrain|buildings|objectives)\[(\d+)\]\.?(\w*)", path):
            kind = {"terrain": "terrain", "buildings": "building", "objectives": "objective"}
            rows = self.placed.get(kind[match[1]], [])
            if int(match[2]) >= len(rows):
                return None
            row, key = rows[int(match[2])], match[3]
            if match[1] == "terrain":
                return f"terrain_{row}_{'kind' if key == 'kind' else 'corners'}"
            if match[1] == "buildings":
                return f"building_{row}_{'card' if key == 'card' else 'corners'}"
            keys = {"point": "x", "radius": "radius", "sides": "side", "points_per_turn":
                    "per_turn", "points_at_end": "at_end"}  # fmt: skip
            return f"objective_{row}_{keys.get(key, 'id')}"
        if match := re.match(r"sides\[(\d+)\]\.?(\w*)", path):
            side, key = int(match[1]), match[2]
            if side >= len(self.side_ids):
                return None
            return f"side_{side}_{ {'zone': 'zone', 'name': 'name'}.get(key, 'spots') }"
        return None


def _spot_of(path: str) -> str:
    """``sides[0].units[2].position`` → "spot 3: " (which of a side's spots a reason is about)."""
    match = re.match(r"sides\[\d+\]\.units\[(\d+)\]", path)
    return f"spot {int(match[1]) + 1}: " if match else ""
