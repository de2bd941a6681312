"""Forms for a campaign battle: set-up on a reference scenario, and a table's result by hand.

Both list the campaign's ready units, one row of fields each (``side_<pk>`` and the rest), so
they work as plain HTML forms; ``rows`` gives the template each unit with its bound fields. A
unit still in a battle whose outcome is not applied has no row (``engaged``: the page names it
and the battle instead). A campaign with too many units to list has rows for a page of them
and for those put on a side on other pages (``paged``: `units_offered.units_offered`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.forms.utils import ErrorDict
from django.utils.text import capfirst

from battles.engine.events import Removal
from battles.engine.validation import MAX_UNITS_PER_SIDE
from battles.forms import SEED_HELP, LaunchKeyField, SeedField, WholeNumberField
from battles.odds import ODDS_MAX_BATTLES, ODDS_PRECISIONS
from campaign.forms import PageForm
from campaign.models import Campaign, Force, Order, Unit
from campaign.pages.names import unit_label
from campaign.pages.sides import (
    campaign_force_colours,
    name_colour,
    scenario_side_names,
    side_name,
    side_place,
    table_side_name,
)
from campaign.rules.bridge import paradrops
from campaign.rules.damage import LEFT_THE_TABLE
from campaign.rules.orders import HOURS_PER_DAY, OrderKind
from campaign.rules.state import Status
from campaign.rules.values import TURN_LIMIT_MAX
from campaign.selectors.battle_setup import UnitsPage
from campaign.services.battles import Deployment, campaign_battle_places, still_in_battle
from campaign.services.deployment import Spot, deployment_spots, off_table, spot
from campaign.services.going_in import deployment_order, led_units
from campaign.services.outcomes import battle_day_problem, battle_hour_problem
from units.words import possessive

NO_ORDER = "none"
ORDER_CHOICES = [
    ("attack", "Attack"),
    ("advance", "Advance"),
    ("hold", "Hold"),
    ("screen", "Screen"),
    (NO_ORDER, "No Order"),
]
REMOVAL_LABELS = {
    r: f"{LEFT_THE_TABLE[r]} ({r.value} on the table)" if r else LEFT_THE_TABLE[r] for r in Removal
}
"""How a unit left a table battle, as the result form offers it and the report says it: "Taken
out (destroyed on the table)", in the rule text's word too."""


def not_a_choice(unit: Unit, what: str) -> dict[str, str]:
    """A unit row's choice sent with a value its list does not hold (a page drawn for another
    scenario, a tampered form), refused naming the unit and what the list holds: "Atlas (Red
    Company): “zz” is not a side of this battle." rather than "Select a valid choice"."""
    label = unit_label(unit).replace("%", "%%")  # the message is %-formatted with the value
    return {"invalid_choice": f"{label}: “%(value)s” is not {what}; choose one from its list."}


def default_sides(
    forces: Sequence[Force], sides: Sequence[tuple[str, str]], colours: Mapping[int, str]
) -> dict[int, str]:
    """Each force's side before the GM chooses, by force id: the side whose name says the
    force's colour (``colours``, `sides.force_colours`: Blue Battalion fights as "Blue Force",
    not as "Red Force"), else the side with the fewest forces so far, in the scenario's order."""
    if not sides:
        return {}
    chosen: dict[int, str] = {}
    count = {side: 0 for side, _ in sides}
    by_pk = sorted({f.pk: f for f in forces}.values(), key=lambda f: f.pk)
    for force in by_pk:
        for side, name in sides:
            if count[side] == 0 and name_colour(name) == colours[force.pk]:
                chosen[force.pk] = side
                count[side] += 1
                break
    for force in by_pk:
        if force.pk not in chosen:
            side = min(count, key=lambda s: count[s])
            chosen[force.pk] = side
            count[side] += 1
    return chosen


def held_back_problems(form: forms.Form, engaged: Sequence[tuple[Unit, str]]) -> None:
    """A unit held back (still in a battle whose outcome is not applied) that the form was sent
    with anyway, put on a side by a page drawn before that battle began: refused above the
    form in the service's own words, rather than quietly left out."""
    for unit, battle in engaged:
        if form.data.get(f"side_{unit.pk}"):
            form.add_error(None, still_in_battle(unit, battle))


def out_of_action_problems(form: forms.Form, refused: Sequence[Unit]) -> None:
    """A unit out of action (destroyed, or retreated since the page was drawn) that the form
    was sent with on a side: refused above the form, naming it and why."""
    for unit in refused:
        if form.data.get(f"side_{unit.pk}"):
            why = Status(unit.status).out_of_action
            form.add_error(None, f"{unit_label(unit)} cannot fight: {why[:1].lower()}{why[1:]}.")


def chosen_problems(form: Any, too_many_note: str = "") -> None:
    """What a battle's form (set-up, table result, engagement) was sent with on a side and
    cannot field: units held back (`held_back_problems`), out of action
    (`out_of_action_problems`), and more than a paged form reads back (``too_many_note``
    ends that sentence)."""
    held_back_problems(form, form.engaged)
    out_of_action_problems(form, form.refused)
    if form.paged and form.paged.too_many:
        form.add_error(
            None, f"More than {form.paged.too_many} units were put on a side{too_many_note}."
        )


def browsed(form: forms.Form) -> forms.Form:
    """A bound form shown again as it was sent, unchecked: the GM moved to another page of
    units or searched, and nothing is launched, so nothing is refused either."""
    form._errors = ErrorDict()
    form.cleaned_data = {}
    return form


def _facing(spots: Sequence[Spot], position: tuple[Any, Any], ordinal: int) -> float:
    """A typed position faces as the spot there does, else as the side's ordinal-th spot."""
    here = next((f for p, f in spots if tuple(p) == position), None)
    return here if here is not None else spot(spots, ordinal)[1]


class BattleSetupForm(PageForm):
    """Units to sides with positions and Orders, the turn limit, an optional seed.

    A unit with a character's Order under way (``under_way``) takes that Order into the battle:
    its row says what the bridge makes of it, and has no standing Order to choose.
    """

    name = forms.CharField(max_length=200, required=False, help_text="Blank: the scenario's.")
    turn_limit = WholeNumberField(
        counts="turn",
        min_value=1,
        max_value=TURN_LIMIT_MAX,
        required=False,
        help_text="Blank: the scenario's.",
    )
    seed = SeedField(help_text=SEED_HELP)
    request_key = LaunchKeyField()
    odds_battles = WholeNumberField(
        counts="battle",
        min_value=10,
        max_value=ODDS_MAX_BATTLES,
        initial=200,
        required=False,
        label="Battles to ask, at most",
        help_text="\u201cWho is favoured?\u201d fights up to this many, each with its own seed, "
        f"and stops sooner once every outcome is known within \u00b1{ODDS_PRECISIONS[0]:g} points.",
    )
    odds_run = forms.IntegerField(required=False, widget=forms.HiddenInput)
    odds_key = LaunchKeyField(required=False)
    """"Who is favoured?" asked twice (a double click) is one odds run; each answer comes back
    with a new key, so the next question, after a unit moved, is a new run."""

    def __init__(
        self,
        *args: Any,
        units: Sequence[Unit],
        scenario: dict[str, Any],
        under_way: Mapping[int, Order] | None = None,
        campaign: Campaign | None = None,
        engaged: Sequence[tuple[Unit, str]] = (),
        refused: Sequence[Unit] = (),
        paged: UnitsPage | None = None,
        unfit: Sequence[tuple[Force, str]] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.units = list(units)
        self.engaged = list(engaged)
        self.refused = list(refused)
        # Forces with no unit offered, and why (`units_offered.UnitsOffered.unfit`).
        self.unfit = list(unfit)
        # A campaign too big to list every unit shows a page of them (``paged``), none put on
        # a side by default; the units put on a side on other pages come along (``chosen``).
        self.paged = paged
        self.elsewhere = {unit.pk for unit in paged.chosen} if paged else set()
        self.under_way = dict(under_way or {})
        self.led = led_units([u for u in self.units if u.pk in self.under_way])
        self.scenario = scenario
        self.spots = deployment_spots(scenario)
        sides = [(s.get("id"), s.get("name") or s.get("id")) for s in scenario.get("sides", [])]
        self.side_names = {side: str(name) for side, name in sides}
        self.fields["turn_limit"].initial = scenario.get("turn_limit")
        # By default each force takes a side (see default_sides), each unit standing where
        # the launch would put it given no position: the first free spot of its side that the
        # engine lets it stand on (a house's spot suits a squad, not a mech; woods, no car).
        # A force with no unit fit to fight keeps the side it would take, so that side is
        # named as its (`side_labels`) and the others' units go to the other.
        self.forces = [*(u.force for u in self.units), *(force for force, _ in self.unfit)]
        # Each force's colour on the map and in the table (`sides.force_colours`).
        self.colours = campaign_force_colours(self.forces[0].campaign_id) if self.forces else {}
        force_sides = {} if paged else default_sides(self.forces, sides, self.colours)
        self.force_sides = force_sides
        places: dict[int, tuple[float, float]] = {}
        if not self.is_bound and force_sides:
            places = campaign_battle_places(
                campaign=campaign or self.units[0].force.campaign,
                base=scenario,
                placing=[
                    (u, force_sides[u.force_id]) for u in self.units if u.force_id in force_sides
                ],
            )
        for unit in self.units:
            x, y = places.get(unit.pk, (None, None))
            self.fields[f"side_{unit.pk}"] = forms.ChoiceField(
                label=f"Side of {unit.name}",
                choices=[("", "Not fighting"), *sides],
                required=False,
                initial=force_sides.get(unit.force_id, ""),
                error_messages=not_a_choice(unit, "a side of this scenario"),
            )
            for name, value in (("x", x), ("y", y)):
                self.fields[f"{name}_{unit.pk}"] = forms.FloatField(
                    label=f"{name} of {unit.name}",
                    required=False,
                    initial=value,
                    error_messages={
                        "invalid": f"{possessive(unit.name)} {name} must be a number of inches"
                    },
                )
            if unit.pk not in self.under_way:
                self.fields[f"order_{unit.pk}"] = forms.ChoiceField(
                    label=f"Orders of {unit.name}",
                    choices=ORDER_CHOICES,
                    initial="attack",
                    error_messages=not_a_choice(unit, "an Order a unit takes into battle"),
                )
        # The sides offered as the rest of the set-up names them: by the forces put on them.
        named = self.side_labels()
        for unit in self.units:
            self.fields[f"side_{unit.pk}"].choices = [
                ("", "Not fighting"),
                *((side, capfirst(name)) for side, name in named.items()),
            ]

    def side_labels(self) -> dict[str, str]:
        """Each of the scenario's sides, by id, as the set-up names it: by the forces of the
        units the form puts on it now (`scenario_side_names`), as the odds beside Launch and
        the battle's own pages name it. A side with none yet is the side of the forces that
        would take it (`default_sides`) with no unit on any side now, "Blue Battalion's side";
        else it goes by its place (`scenario_side_names`), not by the scenario's name for it."""
        forces = self.forces_on_sides()
        named = scenario_side_names(self.scenario.get("sides", []), forces)
        for side, owners in self.side_owners(forces).items():
            named[side] = f"{possessive(side_name(owners))} side"
        return named

    def forces_on_sides(self) -> dict[str, list[Force]]:
        """The forces of the units the form puts on each side now, by side id."""
        forces: dict[str, list[Force]] = {side: [] for side in self.side_names}
        for unit in self.units:
            side = self[f"side_{unit.pk}"].value()
            if side in forces:
                forces[side].append(unit.force)
        return forces

    def side_owners(self, forces: Mapping[str, list[Force]]) -> dict[str, list[Force]]:
        """Each side with no unit on it (``forces``: those on each side now), by the forces
        that would take it by default and have no unit on any side now."""
        on_a_side = {force.pk for on in forces.values() for force in on}
        owners: dict[str, list[Force]] = {}
        for force in {force.pk: force for force in self.forces}.values():
            side = self.force_sides.get(force.pk)
            if side in forces and not forces[side] and force.pk not in on_a_side:
                owners.setdefault(side, []).append(force)
        return owners

    def side_unfit(self, side: str) -> str:
        """Why no unit of the forces whose side it is (`side_owners`) may stand on ``side``:
        each such force with no unit fit to fight, and why; "" when none is."""
        unfit = {force.pk: why for force, why in self.unfit}
        owners = self.side_owners(self.forces_on_sides()).get(side, [])
        return " ".join(unfit[force.pk] for force in owners if force.pk in unfit)

    def named_sides(self) -> list[tuple[str, dict[str, Any]]]:
        """(its name as `side_labels` has it, the scenario's side) for each side, in order."""
        named = self.side_labels()
        return [(named[side["id"]], side) for side in self.scenario.get("sides", [])]

    def rows(self) -> list[dict[str, Any]]:
        """Each unit's fields, its number (the set-up map marks the unit with it) and its
        force's colour."""
        rows = []
        zoned = any(side.get("zone") for side in self.scenario.get("sides", []))
        for number, unit in enumerate(self.units, start=1):
            row = {
                "number": number,
                "colour": self.colours[unit.force_id],
                "unit": unit,
                "side": self[f"side_{unit.pk}"],
                "x": self[f"x_{unit.pk}"],
                "y": self[f"y_{unit.pk}"],
                "order": None,
                "elsewhere": unit.pk in self.elsewhere,
                # Where the sides keep to zones, an Airborne unit is the exception: say so.
                "paradrop": zoned and paradrops(unit.specialties),
            }
            if (order := self.under_way.get(unit.pk)) is not None:
                going = deployment_order(unit, None, self.under_way, led=unit.pk in self.led)
                row["character_order"] = going.text
                row["character_order_short"] = f"{OrderKind(order.kind).label} ({going.giver})"
            else:
                row["order"] = self[f"order_{unit.pk}"]
            rows.append(row)
        return rows

    def field_for(self, path: str) -> str | None:
        """Where a service error belongs: ``deployments[i]`` by that unit's side, and the
        engine's ``sides[i].units[j].position`` by the x of the j-th unit put on side i (by
        its y when only its y is off the table)."""
        fielded = getattr(self, "fielded", [])
        match = re.match(r"deployments\[(\d+)\]", path)
        if match and int(match[1]) < len(fielded):
            return f"side_{fielded[int(match[1])].pk}"
        match = re.match(r"sides\[(\d+)\]\.units\[(\d+)\]", path)
        side_ids = list(self.spots)
        if match and int(match[1]) < len(side_ids):
            side = side_ids[int(match[1])]
            on_side = [u for u in fielded if self.cleaned_data.get(f"side_{u.pk}") == side]
            if int(match[2]) < len(on_side):
                unit = on_side[int(match[2])]
                at = (self.cleaned_data.get(f"x_{unit.pk}"), self.cleaned_data.get(f"y_{unit.pk}"))
                if [name for name, _ in off_table(self.scenario, at)] == ["y"]:
                    return f"y_{unit.pk}"
                return f"x_{unit.pk}"
        return None

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        self.fielded: list[Unit] = []
        deployments: list[Deployment] = []
        used: dict[str, int] = {}
        for unit in self.units:
            side = data.get(f"side_{unit.pk}")
            if not side:
                continue
            x, y = data.get(f"x_{unit.pk}"), data.get(f"y_{unit.pk}")
            facing = _facing(self.spots.get(side, []), (x, y), used.get(side, 0))
            used[side] = used.get(side, 0) + 1
            if (x is None) != (y is None):
                # A coordinate typed as no number says so beside itself; one left blank is
                # asked for beside its own box.
                given, missing = ("an x", "y") if y is None else ("a y", "x")
                if not self.has_error(f"{missing}_{unit.pk}"):
                    self.add_error(
                        f"{missing}_{unit.pk}",
                        f"{unit.name} has {given} but no {missing}: give both, or neither for "
                        "the next spot",
                    )
                continue
            # No position: the launch puts it on its side's next spot it may stand on.
            position = (x, y) if x is not None else None
            kind = data.get(f"order_{unit.pk}") or "attack"
            self.fielded.append(unit)
            deployments.append(
                Deployment(
                    unit=unit,
                    side=side,
                    position=position,
                    facing=facing,
                    # A character's Order under way takes the place of this one at launch.
                    order=None if kind == NO_ORDER else {"kind": kind},
                )
            )
        chosen_problems(self, f"; at most {MAX_UNITS_PER_SIDE} fight on each")
        named = self.side_labels()
        for side_id in self.spots:
            if side_id not in used:
                name = named.get(side_id, side_id)
                why = self.side_unfit(side_id) or "put at least one there."
                self.add_error(None, f"No unit is on {name}: {why}")
        data["deployments"] = deployments
        return data


class TableResultForm(PageForm):
    """A battle fought at a real table: who fought on which side, the winner, each unit's losses."""

    name = forms.CharField(max_length=200)
    # Their limits are the service's, said in its words (`battle_day_problem`, `clean_hour`);
    # the page's number boxes show them too.
    day = forms.IntegerField(widget=forms.NumberInput(attrs={"min": 1}))
    hour = forms.IntegerField(
        widget=forms.NumberInput(attrs={"min": 0, "max": HOURS_PER_DAY - 1}),
        required=False,
        help_text="The hour it was fought (0–23): the medics' 24 hours run from then. Left "
        "empty: now for today, 00:00 for an earlier day.",
    )
    side_a = forms.CharField(max_length=100, initial="attackers", label="First side")
    side_b = forms.CharField(max_length=100, initial="defenders", label="Second side")
    winner = forms.ChoiceField(  # its choices name the sides (`_name_sides`)
        error_messages={"required": "Choose the side that won, or Neither (a draw)."}
    )
    request_key = LaunchKeyField(required=False)  # a client that sends none is not kept from it

    def __init__(
        self,
        *args: Any,
        units: Sequence[Unit],
        day: int,
        hour: int = 0,
        engaged: Sequence[tuple[Unit, str]] = (),
        refused: Sequence[Unit] = (),
        paged: UnitsPage | None = None,
        cards: Mapping[int, dict[str, Any]] | None = None,
        unfit: Sequence[tuple[Force, str]] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.units = list(units)
        # Forces with no unit offered, and why (`units_offered.UnitsOffered.unfit`), as on the
        # set-up: said above the form, and as why a side named after one has nobody on it.
        self.unfit = list(unfit)
        # Each unit's card as printed now (`going_in.table_cards`): its row says the Skill and
        # Hits the GM counts what it lost from.
        self.cards = dict(cards or {})
        self.engaged = list(engaged)
        self.refused = list(refused)
        # A campaign too big to list every unit shows a page of them (``paged``), as the
        # set-up does; the units put on a side on other pages come along (``chosen``).
        self.paged = paged
        self.elsewhere = {unit.pk for unit in paged.chosen} if paged else set()
        self.today = day
        self.fields["day"].initial = day
        self.fields["day"].widget.attrs["max"] = day
        self.fields["hour"].initial = hour
        # The sides are named after the forces when the units come from two or more (the names
        # the battle's page and the history will use); otherwise the table's roles.
        if paged:
            forces = [force.name for force in paged.forces]
        else:
            # A force with no unit fit to fight still names a side: the one it would take.
            names = [*(u.force.name for u in self.units), *(f.name for f, _ in self.unfit)]
            forces = list(dict.fromkeys(names))
        if len(forces) >= 2:
            self.fields["side_a"].initial, self.fields["side_b"].initial = forces[:2]
        for unit in self.units:
            self.fields[f"side_{unit.pk}"] = forms.ChoiceField(
                label=f"Side of {unit.name}",
                required=False,  # its choices name the sides (`_name_sides`)
                error_messages=not_a_choice(unit, "a side of this battle"),
                # For the page's script, naming a side by the one force on it.
                widget=forms.Select(attrs={"data-force": unit.force.name}),
            )
            # Labelled as the page labels each row's fields, so a refusal names the unit.
            self.fields[f"hits_lost_{unit.pk}"] = WholeNumberField(
                label=f"Hits lost by {unit.name}", counts="Hit", min_value=0, initial=0
            )
            self.fields[f"skill_lost_{unit.pk}"] = WholeNumberField(
                label=f"Skill lost by {unit.name}", min_value=0, initial=0
            )
            self.fields[f"removed_{unit.pk}"] = forms.ChoiceField(
                label=f"How {unit.name} left",
                choices=[(r.value, REMOVAL_LABELS[r]) for r in Removal],
                initial=Removal.NONE.value,
                error_messages=not_a_choice(unit, "a way a unit leaves the table"),
            )
        self._name_sides()
        if paged and self.is_bound:
            # A row the form was sent without (a page not shown then) stands as it starts.
            self.data = self.data.copy()
            for unit in self.units:
                for name in ("hits_lost", "skill_lost", "removed"):
                    field = f"{name}_{unit.pk}"
                    if field not in self.data:
                        self.data[field] = self.fields[field].initial

    SIDES = ("a", "b")
    DRAW = "draw"
    """The winner's choice for a battle neither side won."""

    def _name_sides(self) -> None:
        """The choices of a unit's side and of the winner, naming each side as the GM would
        (`table_side_name`): the name in its box, else the one force its units come from, else
        its place. As sent, for a form shown again; the page's script renames them live."""
        data = self.data if self.is_bound else {}
        names = {}
        for index, side in enumerate(self.SIDES):
            field = f"side_{side}"
            typed = data.get(field, "") if self.is_bound else self.fields[field].initial
            forces = [u.force for u in self.units if data.get(f"side_{u.pk}") == side]
            names[side] = table_side_name(str(typed or ""), forces, index)
        named = [(side, names[side]) for side in self.SIDES]
        # Nothing chosen to start with: a winner forgotten is asked for, never taken for a draw.
        self.fields["winner"].choices = [
            ("", "Choose the winner"),
            *named,
            (self.DRAW, "Neither (a draw)"),
        ]
        for unit in self.units:
            self.fields[f"side_{unit.pk}"].choices = [("", "Not fighting"), *named]

    def side_places(self) -> dict[str, str]:
        """Each side's place, as its choices say it with no other name to give
        (`table_side_name`), for the page's script."""
        return {side: table_side_name("", (), index) for index, side in enumerate(self.SIDES)}

    def _empty_side(self, name: str, index: int) -> str:
        """Why the side the GM named ``name`` (its place when unnamed) has nobody on it, as the
        set-up says it: a side named after a force is that force's side, and a force with no
        unit fit to fight says why (`pages.left_out.no_unit_fit`)."""
        unfit = [why for force, why in self.unfit if force.name == name]
        forces = {u.force.name for u in self.units} | {f.name for f, _ in self.unfit}
        called = f"{possessive(name)} side" if name in forces else name or side_place(index)
        return f"No unit is on {called}: {' '.join(unfit) or 'put at least one there.'}"

    def rows(self) -> list[dict[str, Any]]:
        return [
            {
                "unit": unit,
                "card": self.cards.get(unit.pk),
                "elsewhere": unit.pk in self.elsewhere,
                "side": self[f"side_{unit.pk}"],
                "hits_lost": self[f"hits_lost_{unit.pk}"],
                "skill_lost": self[f"skill_lost_{unit.pk}"],
                "removed": self[f"removed_{unit.pk}"],
            }
            for unit in self.units
        ]

    def clean_day(self) -> int:
        day = self.cleaned_data["day"]
        if problem := battle_day_problem(self.today, day):
            raise forms.ValidationError(problem)
        return day

    def clean_hour(self) -> int | None:
        hour = self.cleaned_data["hour"]
        if hour is not None and (problem := battle_hour_problem(hour)):
            raise forms.ValidationError(problem)
        return hour

    def field_for(self, path: str) -> str | None:
        """A service error about ``outcomes.<pk>.<field>`` belongs in that unit's column of
        the field; one about the whole ``outcomes.<pk>`` next to its hits; one about
        ``sides.<name>`` at that side's name (the first side's, if no side has the name)."""
        if match := re.fullmatch(r"outcomes\.(\d+)(?:\.(\w+))?", path):
            return f"{match[2] or 'hits_lost'}_{match[1]}"
        if path.startswith("sides."):
            second = (self.cleaned_data.get("side_b") or "").strip()
            return "side_b" if second and path == f"sides.{second}" else "side_a"
        return None

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        chosen_problems(self)
        names = {"a": (data.get("side_a") or "").strip(), "b": (data.get("side_b") or "").strip()}
        if names["a"] and names["a"] == names["b"]:
            self.add_error("side_b", "the two sides need different names")
            return data
        sides: dict[str, list[Unit]] = {names["a"]: [], names["b"]: []}
        outcomes: dict[int, dict[str, Any]] = {}
        for unit in self.units:
            side = data.get(f"side_{unit.pk}")
            if not side:
                continue
            sides[names[side]].append(unit)
            outcomes[unit.pk] = {
                "hits_lost": data.get(f"hits_lost_{unit.pk}"),
                "skill_lost": data.get(f"skill_lost_{unit.pk}"),
                "removed": data.get(f"removed_{unit.pk}"),
            }
        for index, side in enumerate(self.SIDES):
            if not sides[names[side]]:
                self.add_error(None, self._empty_side(names[side], index))
        data["sides"] = sides
        data["outcomes"] = outcomes
        data["winner_name"] = names.get(data.get("winner") or "") or None
        return data
