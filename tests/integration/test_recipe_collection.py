"""A cook's own recipe collection in Kùzu (node and rel tables made with Cypher, indexed in place with the
recipes as hubs), asked as people type. Tables keyed by their names (`Ingredient(name PRIMARY KEY)`), a
rel table named with a preposition (`OF_CUISINE`), present-tense verbs (`USES`, `SUITS`, `BELONGS_TO`
from an ingredient to its food group), and numbers named by their unit (`minutes`, `calories`).
Expected answers are computed from the rows here. Real Kùzu, real MiniLM, offline mode, direct strategy."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from graph_rows import written_with_cypher
from test_own_graph_domains import ask
from test_own_graph_named_by_keys import made_and_indexed

from kgqa.api import Workspace

GROUPS = {
    "Garlic": "Vegetable",
    "Ginger": "Vegetable",
    "Tomato": "Vegetable",
    "Basil": "Vegetable",
    "Butter": "Dairy",
    "Parmesan": "Dairy",
    "Chicken": "Meat",
    "Pork": "Meat",
    "Rice": "Grain",
    "Spaghetti": "Grain",
    "Chickpeas": "Legume",
    "Peanuts": "Nut",
    "Cashews": "Nut",
    "Lemon": "Fruit",
    "Mango": "Fruit",
}
#: name, minutes, calories, cuisine, chef, ingredients, diets
RECIPES = [
    ("Spaghetti Carbonara", 40, 720, "Italian", "Marco Bellini", ["Spaghetti", "Pork", "Parmesan"], []),
    ("Pesto Pasta", 25, 560, "Italian", "Marco Bellini", ["Spaghetti", "Basil", "Garlic", "Cashews"], ["Vegetarian"]),
    ("Lemon Chicken", 35, 480, "Italian", "Marco Bellini", ["Chicken", "Lemon", "Garlic", "Butter"], ["Gluten-Free"]),
    ("Pad Thai", 20, 650, "Thai", "Sunee Chaiyaporn", ["Rice", "Peanuts", "Lemon", "Ginger"], ["Vegan", "Vegetarian"]),
    ("Green Curry", 45, 530, "Thai", "Sunee Chaiyaporn", ["Ginger", "Basil", "Rice"], ["Vegan", "Vegetarian"]),
    ("Mango Sticky Rice", 30, 410, "Thai", "Sunee Chaiyaporn", ["Mango", "Rice"], ["Vegan", "Vegetarian"]),
    ("Chicken Satay", 50, 590, "Thai", "Sunee Chaiyaporn", ["Chicken", "Peanuts", "Ginger"], ["Gluten-Free"]),
    ("Chana Masala", 40, 450, "Indian", "Anjali Rao", ["Chickpeas", "Tomato", "Ginger", "Garlic"], ["Vegan"]),
    ("Butter Chicken", 60, 780, "Indian", "Anjali Rao", ["Chicken", "Butter", "Tomato"], ["Gluten-Free"]),
    ("Guacamole", 10, 240, "Mexican", "Lupe Herrera", ["Lemon", "Tomato", "Garlic"], ["Vegan", "Gluten-Free"]),
    ("Pork Tacos", 35, 620, "Mexican", "Lupe Herrera", ["Pork", "Tomato", "Lemon"], []),
    ("Hummus", 15, 300, "Lebanese", "Rana Haddad", ["Chickpeas", "Lemon", "Garlic"], ["Vegan", "Gluten-Free"]),
]


def collection_statements() -> list[tuple[str, dict]]:
    """The Cypher that writes the collection's database, with its parameters."""
    out: list[tuple[str, dict]] = [
        (ddl, {})
        for ddl in (
            "CREATE NODE TABLE Recipe(id SERIAL PRIMARY KEY, name STRING, minutes INT64, calories INT64)",
            "CREATE NODE TABLE Ingredient(name STRING PRIMARY KEY)",
            "CREATE NODE TABLE FoodGroup(name STRING PRIMARY KEY)",
            "CREATE NODE TABLE Cuisine(name STRING PRIMARY KEY)",
            "CREATE NODE TABLE Chef(name STRING PRIMARY KEY)",
            "CREATE NODE TABLE Diet(name STRING PRIMARY KEY)",
            "CREATE REL TABLE USES(FROM Recipe TO Ingredient)",
            "CREATE REL TABLE BELONGS_TO(FROM Ingredient TO FoodGroup)",
            "CREATE REL TABLE OF_CUISINE(FROM Recipe TO Cuisine)",
            "CREATE REL TABLE CREATED(FROM Chef TO Recipe)",
            "CREATE REL TABLE SUITS(FROM Recipe TO Diet)",
        )
    ]
    names = {
        "Ingredient": set(GROUPS),
        "FoodGroup": set(GROUPS.values()),
        "Cuisine": {r[3] for r in RECIPES},
        "Chef": {r[4] for r in RECIPES},
        "Diet": {d for r in RECIPES for d in r[6]},
    }
    out += [(f"CREATE (:{table} {{name: $n}})", {"n": n}) for table, values in names.items() for n in sorted(values)]
    link = "MATCH (x:{} {{name: $x}}), (y:{} {{name: $y}}) CREATE (x)-[:{}]->(y)"
    out += [(link.format("Ingredient", "FoodGroup", "BELONGS_TO"), {"x": i, "y": g}) for i, g in GROUPS.items()]
    for name, minutes, calories, cuisine, chef, ingredients, diets in RECIPES:
        out.append(("CREATE (:Recipe {name: $n, minutes: $m, calories: $c})", {"n": name, "m": minutes, "c": calories}))
        out += [(link.format("Recipe", "Ingredient", "USES"), {"x": name, "y": i}) for i in ingredients]
        out.append((link.format("Recipe", "Cuisine", "OF_CUISINE"), {"x": name, "y": cuisine}))
        out.append((link.format("Chef", "Recipe", "CREATED"), {"x": chef, "y": name}))
        out += [(link.format("Recipe", "Diet", "SUITS"), {"x": name, "y": d}) for d in diets]
    return out


def make_collection(path: Path) -> None:
    """The collection's own database, written with Cypher."""
    written_with_cypher(path, collection_statements())


@pytest.fixture(scope="module")
def recipes(tmp_path_factory, embedder) -> Iterator[Workspace]:
    yield from made_and_indexed(tmp_path_factory, "recipes", make_collection, "Recipe", embedder)


def named(rows) -> list[str]:
    return sorted(r[0] for r in rows)


def test_superlatives_of_time_and_of_a_number_before_the_type(recipes):
    """ "quickest" is the fewest minutes; "the lowest calorie recipe" ranks by the number the noun before the
    type names; "takes the longest" closes the question; "top 3 quickest" has no article."""
    italian = [r for r in RECIPES if r[3] == "Italian"]
    for question in ("what's the quickest italian recipe", "quickst italian recipe"):
        items, text, _ = ask(recipes, question)
        assert items == [min(italian, key=lambda r: r[1])[0]] and "cuisine Italian" in text, (question, text)
    items, text, _ = ask(recipes, "what is the lowest calorie recipe")
    assert items == [min(RECIPES, key=lambda r: r[2])[0]] and "the fewest calories" in text, text
    thai = [r for r in RECIPES if r[3] == "Thai"]
    items, text, _ = ask(recipes, "what is the highest calorie thai recipe")
    assert items == [max(thai, key=lambda r: r[2])[0]] and "and the most calories" in text, text
    items, text, _ = ask(recipes, "which recipe takes the longest")
    assert items == [max(RECIPES, key=lambda r: r[1])[0]], text
    items, text, result = ask(recipes, "top 3 quickest recipes")
    assert result["items"] == [r[0] for r in sorted(RECIPES, key=lambda r: r[1])[:3]], text
    vegan = [r for r in RECIPES if "Vegan" in r[6]]
    items, text, _ = ask(recipes, "quickest vegan recipe")
    assert items == [min(vegan, key=lambda r: r[1])[0]], text
    items, text, _ = ask(recipes, "which recipe has the highest number of calories")
    assert items == [max(RECIPES, key=lambda r: r[2])[0]] and "stated values" not in text, text
    _, text, result = ask(recipes, "list the top 3 recipes by calories")  # the number named after "by"
    assert result["items"] == [r[0] for r in sorted(RECIPES, key=lambda r: -r[2])[:3]], text


def test_keywords_alone_and_a_synonym_of_the_type_intersect_the_values(recipes):
    """ "gluten free mexican recipes" typed without a question word; "thai *dishes*" names the recipes (an
    everyday word for them), not the cuisine the chain would read and narrow to Thai itself."""
    items, text, _ = ask(recipes, "gluten free mexican recipes")
    assert items == named(r for r in RECIPES if r[3] == "Mexican" and "Gluten-Free" in r[6]), text
    items, text, _ = ask(recipes, "which thai dishes are vegetarian")
    assert items == named(r for r in RECIPES if r[3] == "Thai" and "Vegetarian" in r[6]), text
    items, text, _ = ask(recipes, "vegan dishes")
    assert items == named(r for r in RECIPES if "Vegan" in r[6]), text


def test_a_negation_through_the_ingredients_said_as_the_verbs(recipes):
    """ "don't" negates; "nuts" is the food group Nut in the plural; the answer says what the recipes do
    not do, one step through their ingredients."""
    nuts = {i for i, g in GROUPS.items() if g == "Nut"}
    items, text, _ = ask(recipes, "which recipes don't contain nuts")
    assert items == named(r for r in RECIPES if not nuts & set(r[5])), text
    assert "do not use an ingredient that belongs to Nut" in text, text
    items, text, _ = ask(recipes, "which recipes don't use garlic")
    assert items == named(r for r in RECIPES if "Garlic" not in r[5]) and "do not use Garlic" in text, text
    items, text, _ = ask(recipes, "recipes with nuts")
    assert items == named(r for r in RECIPES if nuts & set(r[5])) and "using one belonging to Nut" in text, text


def test_labels_and_units_said_as_people_say_them(recipes):
    """`OF_CUISINE` is "cuisine"; a number named by its unit is had ("10 minutes", not "the minute")."""
    _, text, _ = ask(recipes, "what cuisine is hummus")
    assert text.startswith("The cuisine of 'Hummus' is Lebanese"), text
    _, text, _ = ask(recipes, "how long does guacamole take")
    assert text.startswith("'Guacamole' has 10 minutes"), text
    items, text, _ = ask(recipes, "chef of green curry")
    assert items == ["Sunee Chaiyaporn"], text
    _, text, _ = ask(recipes, "which recipes use both garlic and lemon")
    assert "those that use" in text and "those that uses" not in text, text


def test_a_name_alone_and_what_two_share(recipes):
    """A recipe's name typed alone is its overview; "what do A and B have in common" lists what both hold."""
    _, text, result = ask(recipes, "mango sticky rice")
    assert result["operation"] == "overview" and "cuisine Thai" in text and "Mango" in text, text
    _, text, _ = ask(recipes, "what do green curry and pad thai have in common")
    assert "both have" in text and "the cuisine Thai" in text and "both use Ginger and Rice" in text, text
    assert text.count("Sunee Chaiyaporn") == 1, text  # the shared chef once, not again as a path


def test_a_time_asked_for_is_the_value_named_by_a_unit_of_time(recipes):
    """ "the average cooking time": `minutes`, the one value named by a unit of time."""
    thai = [r[1] for r in RECIPES if r[3] == "Thai"]
    _, text, result = ask(recipes, "average cooking time of thai recipes")
    assert result["value"] == pytest.approx(sum(thai) / len(thai), abs=0.5), text
