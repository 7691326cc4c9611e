"""Portuguese raw material of the sandbox world: people, companies, places, classes, steps.

The words are data, shipped in ``assets/sandbox/`` (people.json, companies.json, places.json,
courts.json); this module reads them once, at import, and gives each list the shape the world's
code reads: tuples (a JSON array), int keys where the code looks up by number. Codes follow
the shape of the CNJ unified tables (TPU) so they look real, but the world is fiction: no name
there points at a real person or case.
"""

from __future__ import annotations

from typing import Any

from lawsuit_tui.assets_dir import read_asset_json

__all__ = [
    "BIG_COMPANIES",
    "BIG_LAWSUIT_BODY",
    "BUSY_LAWYER_NAME",
    "BUSY_PERSON_NAME",
    "CASTS",
    "CITIES",
    "CLASSES",
    "COMPANY_BUSINESS",
    "COMPANY_SIZES",
    "COMPANY_STEMS",
    "COMPANY_SUFFIX",
    "COURT_BODIES",
    "EXECUTION_CLASS",
    "EXECUTION_CLASSES",
    "FEMALE_FIRST",
    "HOMONYMS",
    "INCIDENT_CLASSES",
    "JUDGE_TITLES",
    "LEGAL_NATURES",
    "MALE_FIRST",
    "MIDDLE_FEMALE",
    "MIDDLE_MALE",
    "NEIGHBOURHOODS",
    "PRECATORY_CLASSES",
    "PRECATORY_SUBJECTS",
    "PROFESSIONS",
    "PUBLIC_BODIES_FEDERAL",
    "PUBLIC_NATURES",
    "ROLES",
    "SECOND_BODIES",
    "SECOND_INSTANCE_CLASSES",
    "STATE_BODY_BY_AREA",
    "STATE_SYSTEMS",
    "STREETS",
    "SUBJECTS",
    "SUBJECTS_BY_CLASS",
    "SURNAMES",
    "SYSTEMS_BY_SEGMENT",
    "TOP_BODIES",
    "particle",
    "tuples",
]


def tuples(value: Any) -> Any:
    """``value`` with every JSON array made a tuple, as the world's code was written for."""
    if isinstance(value, list):
        return tuple(tuples(item) for item in value)
    if isinstance(value, dict):
        return {key: tuples(item) for key, item in value.items()}
    return value


def _load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = tuples(read_asset_json(f"sandbox/{name}"))
    return data


_PEOPLE = _load("people.json")
_COMPANIES = _load("companies.json")
_PLACES = _load("places.json")
_COURTS = _load("courts.json")

# -- people ---------------------------------------------------------------------------------
MALE_FIRST: tuple[str, ...] = _PEOPLE["male_first"]
FEMALE_FIRST: tuple[str, ...] = _PEOPLE["female_first"]
MIDDLE_MALE: tuple[str, ...] = _PEOPLE["middle_male"]
MIDDLE_FEMALE: tuple[str, ...] = _PEOPLE["middle_female"]
SURNAMES: tuple[str, ...] = _PEOPLE["surnames"]
_PARTICLE_OF: dict[str, str] = _PEOPLE["surname_particles"]
PROFESSIONS: tuple[str, ...] = _PEOPLE["professions"]
# Names several people share (a name search finds more than one: HOMONYM_AMBIGUOUS).
HOMONYMS: tuple[str, ...] = _PEOPLE["homonyms"]
# A party to many lawsuits, and a lawyer in many (the busy samples).
BUSY_PERSON_NAME: str = _PEOPLE["busy_person"]
BUSY_LAWYER_NAME: str = _PEOPLE["busy_lawyer"]


def particle(surname: str) -> str | None:
    """The particle Brazilians put before a surname ("da Silva", "dos Santos", "de Souza"),
    None for surnames that go without one."""
    return _PARTICLE_OF.get(surname)


# -- companies and public bodies ------------------------------------------------------------
COMPANY_STEMS: tuple[str, ...] = _COMPANIES["stems"]
# (business name, CNAE code, CNAE description)
COMPANY_BUSINESS: tuple[tuple[str, str, str], ...] = _COMPANIES["business"]
COMPANY_SUFFIX: tuple[str, ...] = _COMPANIES["suffixes"]
# suffix -> (legal nature code, legal nature name)
LEGAL_NATURES: dict[str, tuple[str, str]] = _COMPANIES["legal_natures"]
COMPANY_SIZES: tuple[str, ...] = _COMPANIES["sizes"]
# Big litigants: (name, legal nature code, legal nature name, (CNAE code, CNAE description))
BIG_COMPANIES: tuple[tuple[str, str, str, tuple[str, str]], ...] = _COMPANIES["big_companies"]
PUBLIC_BODIES_FEDERAL: tuple[str, ...] = _COMPANIES["public_bodies_federal"]
# kind of public body -> (legal nature code, legal nature name)
PUBLIC_NATURES: dict[str, tuple[str, str]] = _COMPANIES["public_natures"]

# -- places ---------------------------------------------------------------------------------
# Cities by state: (city, state-court comarca code). The first one is the capital.
CITIES: dict[str, tuple[tuple[str, int], ...]] = _PLACES["cities"]
STREETS: tuple[str, ...] = _PLACES["streets"]
NEIGHBOURHOODS: tuple[str, ...] = _PLACES["neighbourhoods"]

# -- courts ---------------------------------------------------------------------------------
# Classes per justice segment: (code, name, area of law, kind). kind chooses roles and step
# vocabulary: civil, fiscal, labour, criminal, electoral, administrative, appeal, precatory,
# execution.
CLASSES: dict[str, tuple[tuple[int, str, str, str], ...]] = _COURTS["classes"]
# kind (or "jec") -> (code, name) of the appeal's class
SECOND_INSTANCE_CLASSES: dict[str, tuple[int, str]] = _COURTS["second_instance_classes"]
PRECATORY_CLASSES: tuple[tuple[int, str], ...] = _COURTS["precatory_classes"]
EXECUTION_CLASS: tuple[int, str] = _COURTS["execution_class"]
INCIDENT_CLASSES: tuple[tuple[int, str], ...] = _COURTS["incident_classes"]
# area of law -> (code, name) of its subjects
SUBJECTS: dict[str, tuple[tuple[int, str], ...]] = _COURTS["subjects"]
PRECATORY_SUBJECTS: tuple[tuple[int, str], ...] = _COURTS["precatory_subjects"]
# kind -> (active pole's role, passive pole's role)
ROLES: dict[str, tuple[str, str]] = _COURTS["roles"]
# Court bodies by kind of court ({n} is the body's number).
COURT_BODIES: dict[str, tuple[str, ...]] = _COURTS["court_bodies"]
# Where the biggest lawsuit of the world (10,000 steps) runs.
BIG_LAWSUIT_BODY: str = _COURTS["big_lawsuit_body"]
STATE_BODY_BY_AREA: dict[str, str] = _COURTS["state_body_by_area"]
# Systems (court portals) by segment; the vault registers the instances of one court together.
SYSTEMS_BY_SEGMENT: dict[int, str] = {
    int(segment): system for segment, system in _COURTS["systems_by_segment"].items()
}
STATE_SYSTEMS: dict[str, str] = _COURTS["state_systems"]
# D184: who may be a party to what, by class (see casts.py); read as JSON objects.
CASTS: dict[str, dict[str, object]] = _COURTS["casts"]
# class code or "code/area" -> the subjects it has (the first) and may add (the rest)
SUBJECTS_BY_CLASS: dict[str, tuple[tuple[int, str], ...]] = _COURTS["subjects_by_class"]
# "first" and "second" (by segment), "small_claims_second", "precatory": judges' titles
JUDGE_TITLES: dict[str, Any] = _COURTS["judge_titles"]
# kind of appeal body -> (template with {n}, how many such bodies)
SECOND_BODIES: dict[str, tuple[str, int]] = _COURTS["second_bodies"]
# segment name -> (code, name) of the class of a sentence executed against the public purse
EXECUTION_CLASSES: dict[str, tuple[int, str]] = _COURTS["execution_classes"]
# a superior court's acronym (or "default") -> the bodies that judge there
TOP_BODIES: dict[str, tuple[str, ...]] = _COURTS["top_bodies"]
