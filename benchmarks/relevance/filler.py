"""The generated part of the relevance set: about 900 entries on the same topics as the core.

Each template is a kind of note a long-lived assistant accumulates (meetings, other people's
preferences and appointments, trips, purchases, logs, recommendations, server notes). They
share words and subjects with the core entries on purpose: colleagues with allergies, other
people's lessons and birthdays, old trips, other databases, so that a selector that matches
words without weighing them is misled. The output is deterministic (a seeded generator).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from benchmarks.relevance.dataset import CoreEntry

PEOPLE = (
    "Priyanka",
    "Oliver",
    "Hannah",
    "Kofi",
    "Mei",
    "Lucas",
    "Fatima",
    "George",
    "Ines",
    "Daniel",
    "Zara",
    "Ethan",
    "Sofia",
    "Malik",
    "Chloe",
    "Yusuf",
    "Freya",
    "Mateo",
    "Grace",
    "Arjun",
    "Ellie",
    "Tariq",
    "Isla",
    "Hugo",
    "Amelia",
    "Kenji",
    "Leah",
    "Samuel",
    "Nina",
    "Omar",
)
COLLEAGUES = (
    "Ben",
    "Dev",
    "Harriet",
    "Luis",
    "Ngozi",
    "Pavel",
    "Rachel",
    "Tom",
    "Wen",
    "Yara",
    "Conor",
    "Ayesha",
    "Stefan",
    "Jade",
)
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
TIMES = ("08:30", "09:00", "10:15", "11:00", "12:30", "13:45", "15:00", "16:30", "17:15", "19:00")
CITIES = (
    "Porto",
    "Barcelona",
    "Edinburgh",
    "Amsterdam",
    "Copenhagen",
    "Seville",
    "Krakow",
    "Dublin",
    "Berlin",
    "Bologna",
    "Ghent",
    "Valencia",
    "Bruges",
    "Lyon",
    "Oslo",
    "Vienna",
)
FOODS = (
    "ramen",
    "pad thai",
    "mushroom risotto",
    "fish tacos",
    "dal",
    "shakshuka",
    "bibimbap",
    "paella",
    "pho",
    "falafel wrap",
    "sourdough pizza",
    "laksa",
    "gnocchi",
    "katsu curry",
)
RESTAURANTS = (
    "Bokman",
    "The Olive Shed",
    "Pho Bristol",
    "Wilks",
    "Root",
    "Bravas",
    "Cargo Cantina",
    "Sonny Stores",
    "Pasta Loco",
    "Bulrush",
    "Pizza Workshop",
    "Tare",
    "Adelina Yard",
)
AREAS = (
    "Stokes Croft",
    "Clifton",
    "Bedminster",
    "Southville",
    "Redland",
    "Harbourside",
    "Montpelier",
    "Easton",
    "Totterdown",
    "Cotham",
)
ALLERGENS = (
    "shellfish",
    "peanuts",
    "tree nuts",
    "gluten",
    "sesame",
    "eggs",
    "kiwi",
    "latex",
    "bee stings",
    "dust mites",
    "pollen",
    "ibuprofen",
)
BOOKS = (
    ("Piranesi", "Susanna Clarke"),
    ("The Left Hand of Darkness", "Ursula K. Le Guin"),
    ("Station Eleven", "Emily St. John Mandel"),
    ("Project Hail Mary", "Andy Weir"),
    ("The Remains of the Day", "Kazuo Ishiguro"),
    ("Circe", "Madeline Miller"),
    ("Designing Data-Intensive Applications", "Martin Kleppmann"),
    ("Educated", "Tara Westover"),
    ("The Dispossessed", "Ursula K. Le Guin"),
    ("A Gentleman in Moscow", "Amor Towles"),
    ("Sapiens", "Yuval Noah Harari"),
    ("The Pragmatic Programmer", "Hunt and Thomas"),
    ("Middlemarch", "George Eliot"),
    ("Braiding Sweetgrass", "Robin Wall Kimmerer"),
)
FILMS = (
    "Past Lives",
    "Aftersun",
    "Dune: Part Two",
    "Perfect Days",
    "The Holdovers",
    "Anatomy of a Fall",
    "Paddington 2",
    "Spirited Away",
    "Arrival",
    "The Zone of Interest",
)
SERVICES = (
    "billing-api",
    "route-planner",
    "geo-cache",
    "driver-app-backend",
    "eta-predictor",
    "auth-gateway",
    "telemetry-ingest",
    "invoice-worker",
    "fleet-tracker",
    "notifier",
)
TOOLS = (
    "Grafana",
    "Terraform",
    "Kafka",
    "Redis",
    "Sentry",
    "Argo CD",
    "Datadog",
    "Vault",
    "Kubernetes",
    "PgBouncer",
    "ClickHouse",
    "OpenTelemetry",
)
TOPICS = (
    "rate limiting",
    "schema migrations",
    "retry budgets",
    "feature flags",
    "load testing",
    "index bloat",
    "error budgets",
    "canary releases",
    "cost reporting",
    "queue backlogs",
    "tracing sampling",
    "flaky tests",
    "API versioning",
    "data retention",
)
ACTIVITIES = (
    "piano",
    "tennis",
    "football",
    "ballet",
    "coding club",
    "drama",
    "judo",
    "art class",
    "swimming",
    "violin",
    "cricket",
    "Spanish club",
)
SHOPS = (
    "John Lewis",
    "Decathlon",
    "IKEA",
    "Amazon",
    "Wiggle",
    "Lakeland",
    "Waterstones",
    "Argos",
    "Screwfix",
    "Boots",
)
ITEMS = (
    "a rain jacket",
    "bike lights",
    "a standing desk mat",
    "running socks",
    "a kettle",
    "a bookshelf",
    "school shoes for Lena",
    "a car seat for Theo",
    "a phone case",
    "printer ink",
    "a camping stove",
    "wellies for Theo",
    "a laptop stand",
    "a blender",
)
PODCASTS = (
    "Software Engineering Daily",
    "The Rest Is History",
    "Changelog",
    "Hard Fork",
    "99% Invisible",
    "Freakonomics Radio",
    "CoRecursive",
    "In Our Time",
)
HOSTS = (
    "db-prod-1",
    "db-analytics-3",
    "cache-eu-2",
    "worker-7",
    "bastion-1",
    "kafka-b2",
    "grafana-int",
    "ci-runner-4",
    "metrics-1",
    "search-2",
)

# Each template fills its slots from `r` (a seeded Random) and returns (key stem, value, type).
Template = Callable[[random.Random], tuple[str, str, str]]


def _amount(r: random.Random, low: int, high: int) -> str:
    return f"£{r.randint(low, high)}"


def _date(r: random.Random) -> str:
    return f"{r.randint(1, 28)} {r.choice(MONTHS)}"


TEMPLATES: tuple[Template, ...] = (
    lambda r: (
        "meeting",
        (p := r.choice(COLLEAGUES))
        and f"Meeting with {p} about {r.choice(TOPICS)} on "
        f"{r.choice(DAYS)} at {r.choice(TIMES)}; bring the {r.choice(SERVICES)} figures.",
        "event",
    ),
    lambda r: (
        "allergy_note",
        f"{r.choice(PEOPLE)} is allergic to {r.choice(ALLERGENS)}; remember when hosting.",
        "fact",
    ),
    lambda r: (
        "birthday",
        f"{r.choice(PEOPLE)}'s birthday is {_date(r)}; they would like {r.choice(ITEMS)}.",
        "fact",
    ),
    lambda r: (
        "restaurant",
        f"Tried {r.choice(RESTAURANTS)} in {r.choice(AREAS)}: the {r.choice(FOODS)} was "
        f"{r.choice(['excellent', 'fine', 'too salty', 'worth going back for', 'overpriced'])}.",
        "fact",
    ),
    lambda r: (
        "book_rec",
        (b := r.choice(BOOKS))
        and f"{r.choice(PEOPLE + COLLEAGUES)} recommended '{b[0]}' by {b[1]}.",
        "fact",
    ),
    lambda r: (
        "film",
        f"Watched '{r.choice(FILMS)}' with {r.choice(['Jonas', 'Lena', 'Noor', 'friends'])}; "
        f"rated it {r.randint(5, 10)}/10.",
        "event",
    ),
    lambda r: (
        "trip",
        f"Past trip: {r.choice(CITIES)} in {r.choice(MONTHS)} {r.choice([2022, 2023, 2024])}, "
        f"stayed {r.randint(2, 9)} nights; the {r.choice(FOODS)} there was memorable.",
        "event",
    ),
    lambda r: (
        "flight",
        f"Flight {r.choice(['KL', 'BA', 'EZY', 'TP', 'FR'])}{r.randint(100, 9999)} to "
        f"{r.choice(CITIES)} on {_date(r)} {r.choice([2023, 2024])}, seat "
        f"{r.randint(3, 32)}{r.choice('ACDF')}.",
        "event",
    ),
    lambda r: (
        "run_log",
        f"Run log {_date(r)}: {r.randint(5, 21)} km in {r.randint(28, 130)} minutes, "
        f"{r.choice(['easy pace', 'tempo', 'intervals', 'hilly route', 'with the club'])}.",
        "event",
    ),
    lambda r: (
        "server",
        f"Server {r.choice(HOSTS)} runs {r.choice(TOOLS)} for {r.choice(SERVICES)}; port "
        f"{r.randint(1024, 9999)}.",
        "project",
    ),
    lambda r: (
        "incident",
        f"Incident {_date(r)}: {r.choice(SERVICES)} degraded by {r.choice(TOPICS)}; "
        f"{r.choice(COLLEAGUES)} wrote the postmortem.",
        "event",
    ),
    lambda r: (
        "purchase",
        f"Bought {r.choice(ITEMS)} from {r.choice(SHOPS)} for {_amount(r, 8, 240)} on {_date(r)}.",
        "event",
    ),
    lambda r: (
        "kids_activity",
        f"{r.choice(PEOPLE)}'s kids do {r.choice(ACTIVITIES)} on {r.choice(DAYS)}s at "
        f"{r.choice(TIMES)}.",
        "fact",
    ),
    lambda r: (
        "lena_activity_idea",
        f"Idea for Lena: {r.choice(ACTIVITIES)} taster session at {r.choice(AREAS)} community "
        f"centre, {r.choice(DAYS)} {r.choice(TIMES)}.",
        "fact",
    ),
    lambda r: (
        "podcast",
        f"Podcast worth revisiting: {r.choice(PODCASTS)} episode on {r.choice(TOPICS)}.",
        "fact",
    ),
    lambda r: (
        "colleague_pref",
        f"{r.choice(COLLEAGUES)} prefers {r.choice(['async reviews', 'pairing', 'morning meetings', 'written specs', 'short standups', 'Slack huddles'])} "
        f"and uses {r.choice(['VS Code', 'IntelliJ', 'Emacs', 'Helix', 'Vim'])}.",
        "fact",
    ),
    lambda r: (
        "appointment_other",
        f"{r.choice(['Jonas', 'Noor', 'Mum', 'Dad', r.choice(PEOPLE)])} has a "
        f"{r.choice(['doctor', 'dentist', 'optician', 'physio', 'hairdresser', 'GP'])} "
        f"appointment on {_date(r)} at {r.choice(TIMES)}.",
        "event",
    ),
    lambda r: (
        "expense",
        f"Expense claim for {r.choice(['train tickets', 'a team lunch', 'a conference ticket', 'a hotel night', 'a taxi'])}: "
        f"{_amount(r, 12, 480)} submitted on {_date(r)}.",
        "event",
    ),
    lambda r: (
        "recipe",
        f"Recipe to try: {r.choice(FOODS)} with {r.choice(['miso', 'lime', 'harissa', 'tahini', 'gochujang', 'lemon'])} "
        f"and {r.choice(['spinach', 'chickpeas', 'tofu', 'salmon', 'squash', 'peppers'])}.",
        "fact",
    ),
    lambda r: (
        "gift_idea",
        f"Gift idea for {r.choice(PEOPLE)}: {r.choice(ITEMS)} or a book by {r.choice(BOOKS)[1]}.",
        "fact",
    ),
    lambda r: (
        "house_task",
        f"House task: {r.choice(['clear the gutters', 'bleed the radiators', 'fix the shed door', 'repaint the hallway', 'descale the kettle', 'service the bikes'])} "
        f"before {r.choice(MONTHS)}.",
        "procedure",
    ),
    lambda r: (
        "subscription_other",
        f"{r.choice(PEOPLE)} pays {_amount(r, 5, 40)} a month for "
        f"{r.choice(['Disney+', 'Audible', 'a gym', 'Duolingo', 'a meal kit', 'cloud storage'])}.",
        "fact",
    ),
    lambda r: (
        "lesson_other",
        f"{r.choice(PEOPLE)} takes {r.choice(ACTIVITIES)} lessons on {r.choice(DAYS)} evenings "
        f"with a teacher called {r.choice(PEOPLE)}.",
        "fact",
    ),
    lambda r: (
        "pr_review",
        f"Reviewed {r.choice(COLLEAGUES)}'s PR on {r.choice(SERVICES)}: "
        f"{r.choice(TOPICS)}, {r.randint(40, 900)} lines, "
        f"{r.choice(['approved', 'asked for tests', 'needs a smaller split', 'merged'])}.",
        "event",
    ),
    lambda r: (
        "weekend",
        f"Weekend of {_date(r)}: {r.choice(['picnic at the Downs', 'visited Noor online', 'beach trip to Clevedon', 'museum with the kids', 'bike ride to Bath', 'garden centre'])}.",
        "event",
    ),
    lambda r: (
        "quote",
        f"Quote for {r.choice(['a new boiler', 'loft insulation', 'a bathroom refit', 'new windows', 'solar panels'])} "
        f"from {r.choice(['HeatRight', 'BristolBuild', 'EcoFix', 'Harbour Trades'])}: {_amount(r, 900, 9000)}.",
        "fact",
    ),
)


_FILLER_WORDS = frozenset(
    [
        "the",
        "and",
        "for",
        "with",
        "from",
        "was",
        "has",
        "had",
        "are",
        "they",
        "would",
        "like",
        "about",
    ]
)


def _slug(text: str) -> str:
    """A model-like key from the first three content words (no numbers) of a value."""
    words = [w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in _FILLER_WORDS]
    return "_".join([w for w in words if len(w) > 2 and not w.isdigit()][:3])


def generate(count: int, *, seed: int = 17) -> list[CoreEntry]:
    """`count` generated entries, ages spread over two years (some very recent)."""
    r = random.Random(seed)
    out: list[CoreEntry] = []
    seen_values: set[str] = set()
    while len(out) < count:
        stem, value, kind = r.choice(TEMPLATES)(r)
        if value in seen_values:
            continue
        seen_values.add(value)
        # A spread of ages: a fifth of the notes are from the last month, so recency alone
        # cannot find the answers.
        days = r.uniform(0.5, 30) if r.random() < 0.2 else r.uniform(30, 720)
        key = f"{_slug(value)}_{len(out):03d}"
        out.append(CoreEntry(key=key, value=value, days_ago=round(days, 2), type=kind))
    return out
