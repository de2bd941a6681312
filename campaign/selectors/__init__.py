"""Reads, one module a concept: who may do what in a campaign (`access`), rosters as they stand
(`roster`), a unit's history explained (`entries`), what a GM's click will change (`reviews`),
the timeline and notices (`timeline`), what a member sees of a battle under fog of war (`fog`),
and the units a battle may be set up with (`battle_setup`)."""
