"""The hand-written part of the relevance set: core entries and 120 questions.

One user (a backend engineer in Bristol with a partner, two children and a beagle) has about
1,000 memories. The core entries below are the ones questions are about, plus older versions
of updated facts (still stored, as a model that writes a new key instead of rewriting the old
one leaves them) and hand-written near-duplicates about other people on the same topics.

Question kinds (24 each):

* `direct`: shares words with its answer.
* `paraphrase`: shares no word with its answer entry (key, description or value) once both
  are lower-cased, stemmed and stripped of stop words; `tests/unit_tests/test_relevance_set`
  checks that.
* `update`: the fact changed; the newer entry is the answer and the older one is still stored.
* `multi`: needs two to four entries, all of them.
* `followup`: the last user message only makes sense with the turns before it.

A question is answered when every answer entry is injected in full.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class CoreEntry:
    """One hand-written memory entry; `days_ago` is its age when the questions are asked."""

    key: str
    value: str
    days_ago: float
    type: str = "fact"
    description: str | None = None
    importance: float | None = None


@dataclass(frozen=True)
class Question:
    """One question: the conversation's turns (user first, alternating) and its answer keys."""

    kind: str
    turns: tuple[str, ...]
    answers: tuple[str, ...]
    note: str = field(default="", compare=False)

    @property
    def text(self) -> str:
        """The last user message."""
        return self.turns[-1]


def _e(key: str, value: str, days_ago: float, type: str = "fact", **extra: object) -> CoreEntry:
    return CoreEntry(key, value, days_ago, type, **extra)  # type: ignore[arg-type]


CORE: tuple[CoreEntry, ...] = (
    # ---- health --------------------------------------------------------------------------------
    _e(
        "med_allergy",
        "Allergic to penicillin — amoxicillin gave me hives in 2019.",
        300,
        description="drug allergy",
        importance=0.9,
    ),
    _e("hay_fever", "Hay fever every May and June; cetirizine in the morning helps.", 210),
    _e(
        "dentist_checkup",
        "Dentist check-up with Dr. Lindqvist booked for 14 March at 09:30.",
        60,
        "event",
    ),
    _e(
        "dentist_rescheduled",
        "Dentist check-up moved to 21 March at 16:15 — Dr. Lindqvist's clinic "
        "called to reschedule.",
        20,
        "event",
    ),
    _e("blood_type", "Blood type is O negative.", 420),
    _e(
        "gp_doctor",
        "Family doctor is Dr. Amara Osei at the Riverside Health Centre, phone 020 7946 0321.",
        380,
    ),
    _e(
        "knee_physio",
        "Physiotherapy for the left knee every Tuesday at 18:00 at Flex Physio on Canal Street.",
        100,
        "event",
    ),
    _e(
        "knee_physio_fortnightly",
        "Knee physio reduced to once a fortnight, Tuesday 08:00 before work.",
        13,
        "event",
    ),
    _e("vitamin_d", "Takes 1000 IU vitamin D each morning in winter.", 150, "procedure"),
    _e("glasses", "Reading glasses prescription: +1.25 both eyes, renewed January 2026.", 120),
    _e(
        "sleep",
        "Tries to be in bed by 23:00 on weeknights; melatonin only on long-haul trips.",
        90,
        "preference",
    ),
    # ---- family --------------------------------------------------------------------------------
    _e("partner", "Partner is Jonas; he works as a structural engineer and is vegetarian.", 500),
    _e("kid_lena", "Daughter Lena is 9 and in year 4 at Hillside Primary.", 450),
    _e(
        "kid_lena_school_pickup",
        "Lena's school finishes at 15:15; pickup on Mondays and Thursdays is my job.",
        140,
        "procedure",
    ),
    _e("kid_theo", "Son Theo is 4 and goes to Little Acorns nursery.", 440),
    _e(
        "theo_allergy",
        "Theo reacts badly to peanuts — always carry his EpiPen.",
        330,
        importance=0.9,
    ),
    _e("mum_birthday", "Mum's birthday is 2 August; she loves orchids.", 360),
    _e("dad_health", "Dad had a hip replacement in February; I call him every Sunday evening.", 70),
    _e("sister_noor", "Sister Noor lives in Toronto and works as a paediatric nurse.", 400),
    _e("noor_moved", "Noor moved from Toronto to Vancouver for a new hospital job.", 35),
    _e(
        "lena_swimming",
        "Lena's swimming lessons are on Wednesdays at 17:00 at Parkside Leisure Centre.",
        200,
        "event",
    ),
    _e(
        "lena_swimming_saturdays",
        "Lena's swimming lessons switched to Saturdays at 10:00, same pool at "
        "Parkside Leisure Centre.",
        15,
        "event",
    ),
    _e("anniversary", "Wedding anniversary with Jonas is 17 September.", 480),
    # ---- pets ----------------------------------------------------------------------------------
    _e(
        "dog", "Dog called Biscuit, a 6-year-old beagle; his vet is Dr. Haas at Greenway Vets.", 300
    ),
    _e(
        "dog_food",
        "Biscuit eats grain-free salmon kibble, 2 scoops a day; no chicken (itchy skin).",
        260,
        "procedure",
    ),
    _e("dog_walker", "Dog walker is Priya, Monday to Wednesday around noon.", 150),
    _e(
        "dog_walker_tomasz",
        "New dog walker from June: Tomasz, on weekdays at 13:00; Priya moved away.",
        10,
    ),
    _e(
        "biscuit_vet_change",
        "Biscuit's vet is now Dr. Okonkwo at Bishopston Vets since Greenway closed.",
        22,
    ),
    # ---- home ----------------------------------------------------------------------------------
    _e("address", "Home address: 42 Alder Road, Bristol BS6 7QL.", 520),
    _e(
        "wifi",
        "Home Wi-Fi network is called AlderNest; the router is in the hallway cupboard.",
        510,
    ),
    _e("landlord_rent", "Landlord is Mr. Patel; rent £1,450 due on the 1st of each month.", 330),
    _e(
        "rent_increase",
        "Rent went up to £1,520 from April; still due on the 1st, paid to Mr. Patel.",
        40,
    ),
    _e(
        "bin_collections",
        "Recycling collected on alternate Thursdays; general waste every Monday.",
        365,
        "procedure",
    ),
    _e(
        "general_waste_day",
        "Council changed collections: general waste now goes out on Wednesdays.",
        28,
        "procedure",
    ),
    _e("boiler", "Boiler is a Vaillant ecoTEC; annual service due in October with HeatRight.", 240),
    _e("cleaner_rosa", "Cleaner Rosa comes every other Friday morning; pay her £60 cash.", 200),
    _e(
        "cleaner_day_change", "Rosa now comes every other Tuesday afternoon instead of Fridays.", 16
    ),
    _e("plants", "Balcony has tomato plants and basil; water them daily in July.", 55, "procedure"),
    # ---- work ----------------------------------------------------------------------------------
    _e("employer", "Works at Northwind Logistics as a senior backend engineer.", 530),
    _e("manager", "Manager is Claire Dubois.", 250),
    _e("reorg_manager", "Since the reorg in May, reports to Marcus Webb instead of Claire.", 25),
    _e(
        "deploy_rule",
        "Never deploy to production on Fridays; the release train leaves Tuesday and Thursday.",
        310,
        "rule",
        importance=0.8,
    ),
    _e(
        "oncall_rotation",
        "On-call rotation: my week is every fourth week, next one starts 8 June.",
        60,
        "event",
    ),
    _e(
        "oncall_swap",
        "Swapped on-call with Ben: my next on-call week now starts 15 June.",
        6,
        "event",
    ),
    _e(
        "standup",
        "Team standup is at 09:45 on Zoom; async updates in #routing-team on Fridays.",
        200,
        "event",
    ),
    _e("standup_change", "Standup moved to 10:00 and now happens in Google Meet.", 14, "event"),
    _e(
        "project_atlas",
        "Project Atlas: rewriting the route-planning service in Go, deadline end of Q3.",
        150,
        "project",
    ),
    _e(
        "atlas_deadline_moved",
        "Atlas deadline pushed to mid-November after the scope change.",
        11,
        "project",
    ),
    _e(
        "staging_db",
        "Staging database is Postgres 15 on db-staging-2; credentials are in the team vault.",
        280,
        "project",
    ),
    _e(
        "editor",
        "Prefers Neovim with the gruvbox theme; uses tmux for sessions.",
        490,
        "preference",
    ),
    _e(
        "code_style",
        "Code review preference: small PRs under 400 lines, tests in the same PR.",
        270,
        "preference",
    ),
    _e(
        "language_pref",
        "Favourite programming language is Rust, but the day job is mostly Go and Python.",
        460,
        "preference",
    ),
    _e("work_laptop", "Work laptop is a ThinkPad X1 Carbon running Fedora 40.", 300),
    _e(
        "work_laptop_macbook",
        "Got a new MacBook Pro M3 for work; the ThinkPad went back to IT.",
        18,
    ),
    _e("office_days", "Goes into the office on Tuesdays and Wednesdays.", 180),
    _e(
        "office_days_change",
        "Office days changed to Mondays and Thursdays after the desk-booking change.",
        12,
    ),
    _e(
        "commute",
        "Commutes by bike, 25 minutes along the harbourside path; train when it rains.",
        340,
    ),
    _e(
        "expense_policy",
        "Expenses must be submitted in Concur within 30 days with receipts.",
        230,
        "rule",
    ),
    _e(
        "salary_review",
        "Next salary review is in November; wants to ask about the staff engineer track.",
        45,
    ),
    _e(
        "mentoring_aisha",
        "Mentors a junior developer, Aisha, every other Wednesday over lunch.",
        180,
        "event",
    ),
    _e(
        "mentoring_friday",
        "Mentoring sessions with Aisha moved to Friday mornings, weekly.",
        19,
        "event",
    ),
    # ---- food ----------------------------------------------------------------------------------
    _e("diet", "Mostly pescatarian: eats fish but no red meat or poultry.", 470, "preference"),
    _e("coffee_order", "Coffee order: oat flat white, no sugar.", 250, "preference"),
    _e("coffee_decaf", "Cut down on caffeine: now orders a decaf oat latte.", 9, "preference"),
    _e("lactose", "Lactose intolerant — dairy milk upsets the stomach, hard cheese is fine.", 410),
    _e(
        "fav_restaurant",
        "Favourite restaurant is Koto, a Japanese place on Gloucester Road.",
        320,
        "preference",
    ),
    _e(
        "cooking",
        "Cooks a big vegetable curry every Sunday for the week's lunches.",
        85,
        "procedure",
    ),
    _e("dislikes", "Can't stand coriander; tastes like soap.", 390, "preference"),
    # ---- travel and car ------------------------------------------------------------------------
    _e("passport", "Passport expires 3 November 2027; it's kept in the desk drawer.", 220),
    _e("summer_trip", "Summer trip: Lisbon, 12–19 July, staying at Casa do Rio.", 120, "event"),
    _e(
        "summer_trip_dates_moved",
        "Summer trip dates moved to 2–9 August because of Jonas's work; hotel "
        "rebooked, still Casa do Rio.",
        8,
        "event",
    ),
    _e(
        "airline",
        "Frequent flyer with KLM Flying Blue, silver status; prefers aisle seats.",
        350,
        "preference",
    ),
    _e(
        "car",
        "Car is a 2019 Skoda Octavia estate, registration WK19 XRT; MOT due in September.",
        380,
    ),
    _e("car_insurance", "Car insurance with Admiral renews on 1 March.", 400),
    _e(
        "car_insurance_switch",
        "Switched car insurance to LV= last month; renewal is now 15 April.",
        30,
    ),
    _e("train_card", "Has a Two Together railcard with Jonas, valid until December.", 160),
    # ---- hobbies -------------------------------------------------------------------------------
    _e(
        "running",
        "Training for the Bristol half marathon in September; long run on Sunday mornings.",
        200,
        "project",
    ),
    _e(
        "half_marathon_target",
        "Aiming for 1:50 at the half marathon after the last time trial.",
        7,
        "project",
    ),
    _e(
        "guitar",
        "Learning classical guitar; lessons with Mr. Evans on Thursday evenings at 19:30.",
        150,
        "event",
    ),
    _e("guitar_lesson_change", "Guitar lessons moved to Monday evenings at 18:00.", 5, "event"),
    _e("books", "Currently reading 'The Overstory' by Richard Powers for the book club.", 90),
    _e(
        "book_club_next_book",
        "Finished The Overstory; the book club is now reading 'Klara and the Sun'.",
        10,
    ),
    _e("book_club", "Book club meets the last Friday of each month at Nadia's flat.", 260, "event"),
    _e(
        "climbing",
        "Bouldering at The Climbing Works with Jonas on Wednesday evenings.",
        175,
        "event",
    ),
    _e("chess", "Plays correspondence chess on Lichess as 'alderknight'.", 300),
    _e("photography", "Shoots film photography on an Olympus OM-1 with Portra 400.", 280),
    _e("gym_membership", "Gym membership at PureGym Clifton, £25 a month.", 200),
    _e(
        "gym_switch",
        "Cancelled PureGym; joined the Better leisure centre pool and gym instead, £32 a month.",
        20,
    ),
    # ---- money ---------------------------------------------------------------------------------
    _e("bank", "Main bank is Monzo; joint account with Jonas at Nationwide for bills.", 500),
    _e("council_tax", "Council tax paid by direct debit on the 15th, band C.", 345, "procedure"),
    _e(
        "subscriptions",
        "Subscriptions: Spotify family, Netflix standard, the Guardian digital.",
        110,
    ),
    _e("pension", "Workplace pension contribution is 8%, matched 5% by Northwind.", 290),
    _e(
        "accountant",
        "Accountant is Helen Brooks; self-assessment for side income due 31 January.",
        190,
    ),
    _e("mobile_plan", "Mobile plan with Three, 30GB for £18 a month.", 300),
    _e("mobile_plan_switch", "Moved the mobile plan to giffgaff, 40GB for £12 a month.", 45),
    # ---- how to talk to me ---------------------------------------------------------------------
    _e("tone", "Prefers short, direct answers without emojis.", 540, "preference", importance=0.7),
    _e("units", "Use metric units and 24-hour time.", 540, "preference"),
    _e(
        "language",
        "Native language is English; speaks intermediate Portuguese, learning it for Lisbon.",
        430,
    ),
    _e("timezone", "Lives in the UK, Europe/London time zone.", 535),
    # ---- hand-written near-duplicates and distractors on the same topics ----------------------
    _e(
        "ravi_allergy",
        "Jonas's colleague Ravi is allergic to shellfish; no prawns at the barbecue.",
        95,
    ),
    _e(
        "penicillin_article",
        "Read that many penicillin allergies are outgrown; ask the GP about a retest someday.",
        35,
    ),
    _e(
        "maisie_swimming",
        "Lena's friend Maisie also swims at Parkside on Saturdays; her mum offered to carpool.",
        12,
    ),
    _e(
        "theo_nursery_menu",
        "Little Acorns sends the lunch menu every Monday; check it for nuts.",
        50,
    ),
    _e(
        "dentist_kids",
        "The kids' dentist is Dr. Mehta at Smile Street, check-ups every six months.",
        140,
    ),
    _e("jonas_dentist", "Jonas's dentist appointment is 28 March at 11:00.", 17),
    _e("claire_farewell", "Claire Dubois's farewell lunch was at Koto; we got her a plant.", 24),
    _e("marcus_1on1", "1:1s with Marcus are every second Monday at 14:00.", 23, "event"),
    _e("ben_oncall_notes", "Ben's on-call handover notes live in the runbook wiki.", 6),
    _e("lisbon_restaurants", "Lisbon restaurants to try: Taberna da Rua, Cervejaria Ramiro.", 30),
    _e(
        "porto_trip_2025",
        "Last year's trip was to Porto in August; stayed at a flat in Ribeira.",
        300,
        "event",
    ),
    _e("noor_visit", "Noor plans to visit Bristol at Christmas with her partner.", 33, "event"),
    _e("gym_jonas", "Jonas goes to the gym at lunchtime near his office.", 60),
    _e(
        "guitar_strings",
        "Buy nylon strings for the guitar: D'Addario Pro-Arté, normal tension.",
        25,
    ),
    _e(
        "book_wishlist",
        "Books to read next: 'Piranesi', 'Tomorrow, and Tomorrow, and Tomorrow'.",
        42,
    ),
    _e("rosa_holiday", "Rosa is away for two weeks in August.", 16),
    _e(
        "physio_exercises",
        "Physio exercises: straight-leg raises and wall sits, 3 sets daily.",
        13,
        "procedure",
    ),
    _e("standup_bot", "The standup bot posts a reminder in #routing-team at 09:30.", 14),
    _e("laptop_bag", "Needs a new laptop bag that fits a 14-inch machine.", 18),
    _e("coffee_beans", "Home coffee beans: Extract Coffee Roasters, filter grind.", 80),
    _e(
        "half_marathon_kit",
        "Race kit for the half marathon: blue club vest and the Pegasus shoes.",
        7,
    ),
    _e("vet_vaccination", "Biscuit's booster vaccination is due in October.", 22, "event"),
    _e(
        "council_parking", "Residents' parking permit renews through the council every January.", 28
    ),
    _e("oncall_pay", "On-call allowance is paid with the following month's salary.", 60),
    _e(
        "atlas_demo",
        "Atlas demo for the ops team went well; they want live traffic figures next.",
        11,
        "project",
    ),
    _e("phone_upgrade", "Jonas's phone contract with Three ends in October.", 45),
    _e("mentoring_notes", "Aisha wants to learn more about database indexing.", 19),
    _e("office_desk", "Favourite hot desk is on the third floor by the window.", 12),
    _e("bins_bulky", "Bulky waste collection can be booked online for £25.", 28),
    _e("car_service", "The Skoda's last service was at KwikFit in January.", 30),
)

Q = Question

QUESTIONS: tuple[Question, ...] = (
    # ---- direct ---------------------------------------------------------------------------------
    Q("direct", ("Am I allergic to any medication?",), ("med_allergy",)),
    Q("direct", ("What is my blood type?",), ("blood_type",)),
    Q("direct", ("What's my home address?",), ("address",)),
    Q("direct", ("What is the name of my dog?",), ("dog",)),
    Q("direct", ("Where do I work?",), ("employer",)),
    Q("direct", ("What is my favourite restaurant?",), ("fav_restaurant",)),
    Q("direct", ("When does my passport expire?",), ("passport",)),
    Q("direct", ("Which staging database server do we use?",), ("staging_db",)),
    Q("direct", ("Which editor and theme do I prefer?",), ("editor",)),
    Q("direct", ("Which frequent flyer programme am I in?",), ("airline",)),
    Q("direct", ("When is Mum's birthday?",), ("mum_birthday",)),
    Q("direct", ("What's my car registration?",), ("car",)),
    Q("direct", ("When is the recycling collected?",), ("bin_collections",)),
    Q("direct", ("What boiler do we have and when is its service due?",), ("boiler",)),
    Q("direct", ("What is my chess username on Lichess?",), ("chess",)),
    Q("direct", ("Which film camera do I shoot with?",), ("photography",)),
    Q("direct", ("What's the name of my accountant?",), ("accountant",)),
    Q("direct", ("What is our home Wi-Fi network called?",), ("wifi",)),
    Q("direct", ("What time zone am I in?",), ("timezone",)),
    Q("direct", ("How many days do I have to submit expenses in Concur?",), ("expense_policy",)),
    Q("direct", ("When is my next salary review?",), ("salary_review",)),
    Q("direct", ("Until when is our railcard valid?",), ("train_card",)),
    Q("direct", ("How much vitamin D do I take?",), ("vitamin_d",)),
    Q("direct", ("What's my reading glasses prescription?",), ("glasses",)),
    # ---- paraphrase: no word in common with the answer ------------------------------------------
    Q("paraphrase", ("Which antibiotic makes me break out in a rash?",), ("med_allergy",)),
    Q("paraphrase", ("What does my husband do for a living?",), ("partner",)),
    Q("paraphrase", ("How old is my little girl?",), ("kid_lena",)),
    Q("paraphrase", ("Where does my youngest spend his days while I'm out?",), ("kid_theo",)),
    Q("paraphrase", ("What kind of pooch do we own?",), ("dog",)),
    Q("paraphrase", ("Which text program do I write software in?",), ("editor",)),
    Q("paraphrase", ("What do we feed the pup, and which meat upsets him?",), ("dog_food",)),
    Q("paraphrase", ("Where do we live?",), ("address",)),
    Q("paraphrase", ("How do I get to my job most days?",), ("commute",)),
    Q("paraphrase", ("Which weekday is off-limits for shipping code live?",), ("deploy_rule",)),
    Q("paraphrase", ("Is beef or chicken on my menu?",), ("diet",)),
    Q("paraphrase", ("Which herb ruins a dish for me?",), ("dislikes",)),
    Q("paraphrase", ("Will a cappuccino give me tummy trouble?",), ("lactose",)),
    Q("paraphrase", ("When does the spring sneezing hit me?",), ("hay_fever",)),
    Q(
        "paraphrase",
        ("Which physician do I see for general problems, and what is their number?",),
        ("gp_doctor",),
    ),
    Q("paraphrase", ("Which big race am I preparing for?",), ("running",)),
    Q("paraphrase", ("Where do we go for sushi when we treat ourselves?",), ("fav_restaurant",)),
    Q("paraphrase", ("Which instrument am I picking up?",), ("guitar",)),
    Q("paraphrase", ("Where do I go rock scrambling indoors with my husband?",), ("climbing",)),
    Q("paraphrase", ("How much of my pay goes into retirement savings?",), ("pension",)),
    Q("paraphrase", ("Who does our taxes?",), ("accountant",)),
    Q("paraphrase", ("How should replies sound when you talk to me?",), ("tone",)),
    Q(
        "paraphrase",
        ("What is my mother tongue, and what second tongue am I studying?",),
        ("language",),
    ),
    Q("paraphrase", ("Where do I store the document I need to go abroad?",), ("passport",)),
    # ---- update: the newer entry answers, the older one is still stored -------------------------
    Q("update", ("When is my dentist appointment?",), ("dentist_rescheduled",)),
    Q("update", ("When are Lena's swimming lessons?",), ("lena_swimming_saturdays",)),
    Q("update", ("Who walks Biscuit during the week?",), ("dog_walker_tomasz",)),
    Q("update", ("How much is our rent?",), ("rent_increase",)),
    Q("update", ("Who is my manager?",), ("reorg_manager",)),
    Q("update", ("Which days do I go into the office?",), ("office_days_change",)),
    Q("update", ("When is our summer trip to Lisbon?",), ("summer_trip_dates_moved",)),
    Q("update", ("Who is my car insurance with?",), ("car_insurance_switch",)),
    Q("update", ("Which mobile plan am I on?",), ("mobile_plan_switch",)),
    Q("update", ("Which gym am I a member of?",), ("gym_switch",)),
    Q("update", ("When are my guitar lessons?",), ("guitar_lesson_change",)),
    Q("update", ("Which book is the book club reading?",), ("book_club_next_book",)),
    Q("update", ("What time is the team standup?",), ("standup_change",)),
    Q("update", ("Which laptop do I use for work?",), ("work_laptop_macbook",)),
    Q("update", ("What's my usual coffee order?",), ("coffee_decaf",)),
    Q("update", ("What's my target time for the half marathon?",), ("half_marathon_target",)),
    Q("update", ("Who is Biscuit's vet?",), ("biscuit_vet_change",)),
    Q("update", ("When does my next on-call week start?",), ("oncall_swap",)),
    Q("update", ("What is the Atlas deadline?",), ("atlas_deadline_moved",)),
    Q("update", ("Where does my sister Noor live?",), ("noor_moved",)),
    Q("update", ("When does Rosa come to clean?",), ("cleaner_day_change",)),
    Q("update", ("How often is my knee physio?",), ("knee_physio_fortnightly",)),
    Q("update", ("When do I meet Aisha for mentoring?",), ("mentoring_friday",)),
    Q("update", ("Which day is general waste collected?",), ("general_waste_day",)),
    # ---- multi: every answer entry is needed ----------------------------------------------------
    Q(
        "multi",
        ("Which allergies do we have in the family?",),
        ("med_allergy", "hay_fever", "theo_allergy"),
    ),
    Q(
        "multi",
        ("I'm cooking for Jonas and me tonight: what should I keep off the plates?",),
        ("partner", "diet", "lactose"),
    ),
    Q(
        "multi",
        ("What happens on Tuesdays now: physio, cleaner?",),
        ("knee_physio_fortnightly", "cleaner_day_change"),
    ),
    Q(
        "multi",
        ("How old are my kids and where do they go during the day?",),
        ("kid_lena", "kid_theo"),
    ),
    Q(
        "multi",
        ("Which family birthdays and anniversaries should I remember?",),
        ("mum_birthday", "anniversary"),
    ),
    Q(
        "multi",
        ("For Lisbon: when do we go, is my passport still valid, and how is my Portuguese?",),
        ("summer_trip_dates_moved", "passport", "language"),
    ),
    Q(
        "multi",
        ("Give me my car's details: registration, MOT and current insurance.",),
        ("car", "car_insurance_switch"),
    ),
    Q(
        "multi",
        ("What are our monthly housing costs: rent and council tax?",),
        ("rent_increase", "council_tax"),
    ),
    Q(
        "multi",
        ("Which laptop and editor do I use for work now?",),
        ("work_laptop_macbook", "editor"),
    ),
    Q(
        "multi",
        ("What does Biscuit eat and who is his vet now?",),
        ("dog_food", "biscuit_vet_change"),
    ),
    Q(
        "multi",
        ("Which days am I in the office and how do I get there?",),
        ("office_days_change", "commute"),
    ),
    Q(
        "multi",
        ("What sports do I do each week: running, climbing, the gym?",),
        ("running", "climbing", "gym_switch"),
    ),
    Q(
        "multi",
        ("What do I pay for subscriptions and my mobile plan?",),
        ("subscriptions", "mobile_plan_switch"),
    ),
    Q(
        "multi",
        ("When do I see Aisha and when does the book club meet?",),
        ("mentoring_friday", "book_club"),
    ),
    Q(
        "multi",
        ("Who do I report to now and what is my main project?",),
        ("reorg_manager", "project_atlas"),
    ),
    Q(
        "multi",
        ("What are the rules for shipping code at work: deploy days and PR size?",),
        ("deploy_rule", "code_style"),
    ),
    Q(
        "multi",
        ("Who helps with the house and the dog during the week now?",),
        ("cleaner_day_change", "dog_walker_tomasz"),
    ),
    Q(
        "multi",
        ("Who is my family doctor, and when is my dentist check-up?",),
        ("gp_doctor", "dentist_rescheduled"),
    ),
    Q("multi", ("What are my health routines: supplements and bedtime?",), ("vitamin_d", "sleep")),
    Q(
        "multi",
        ("Which banks hold my money, and how much goes into my pension?",),
        ("bank", "pension"),
    ),
    Q("multi", ("How should you format answers for me: tone and units?",), ("tone", "units")),
    Q(
        "multi",
        ("Where is Atlas at: what are we building and when is it due now?",),
        ("project_atlas", "atlas_deadline_moved"),
    ),
    Q(
        "multi",
        ("Guitar: who teaches me and when is the lesson now?",),
        ("guitar", "guitar_lesson_change"),
    ),
    Q("multi", ("What do I usually do on Sundays?",), ("running", "cooking", "dad_health")),
    # ---- follow-up: only makes sense with the turns before it -----------------------------------
    Q(
        "followup",
        (
            "Let's talk about Lena's swimming lessons.",
            "Sure, what would you like to know?",
            "What time do they start now?",
        ),
        ("lena_swimming_saturdays",),
    ),
    Q(
        "followup",
        ("I keep forgetting about the dentist.", "Want me to look it up?", "Yes, when is it?"),
        ("dentist_rescheduled",),
    ),
    Q(
        "followup",
        (
            "Jonas wants to cook tonight.",
            "Nice! Anything I should keep in mind?",
            "Is there anything he won't eat?",
        ),
        ("partner",),
    ),
    Q(
        "followup",
        (
            "I have to sort out the car insurance soon.",
            "I can help with that.",
            "When is the renewal?",
        ),
        ("car_insurance_switch",),
    ),
    Q(
        "followup",
        (
            "Biscuit has been scratching a lot.",
            "Poor thing. Maybe it's his diet?",
            "What does he eat?",
        ),
        ("dog_food",),
    ),
    Q(
        "followup",
        ("My knee is acting up again.", "Sorry to hear that.", "When's my next session?"),
        ("knee_physio_fortnightly",),
    ),
    Q(
        "followup",
        (
            "I'm planning the Lisbon trip.",
            "Great, what do you need?",
            "Which hotel did I book, and for which dates?",
        ),
        ("summer_trip_dates_moved",),
    ),
    Q(
        "followup",
        (
            "I want to get Mum something nice.",
            "What's the occasion?",
            "Her birthday. When is it, and what does she like?",
        ),
        ("mum_birthday",),
    ),
    Q(
        "followup",
        ("I think I'm on call soon.", "Want me to check?", "Which week does it start?"),
        ("oncall_swap",),
    ),
    Q(
        "followup",
        ("Aisha asked to reschedule.", "Your mentoring session?", "Yes, when do we usually meet?"),
        ("mentoring_friday",),
    ),
    Q(
        "followup",
        (
            "Can you remind me about the book club?",
            "Sure.",
            "What are we reading this month, and where do we meet?",
        ),
        ("book_club_next_book", "book_club"),
    ),
    Q("followup", ("I need to call my doctor.", "Okay.", "What's the number?"), ("gp_doctor",)),
    Q(
        "followup",
        (
            "Theo is going to a birthday party on Saturday.",
            "Fun! Anything to prepare?",
            "Is there anything he must avoid eating?",
        ),
        ("theo_allergy",),
    ),
    Q(
        "followup",
        ("The boiler is making a noise.", "Is it due for a check?", "Who services it, and when?"),
        ("boiler",),
    ),
    Q(
        "followup",
        (
            "I'm writing my self-assessment.",
            "Need any details?",
            "When's the deadline, and who helps me with it?",
        ),
        ("accountant",),
    ),
    Q(
        "followup",
        ("Marcus asked about my project.", "Atlas?", "Yes. When is it due now?"),
        ("atlas_deadline_moved",),
    ),
    Q(
        "followup",
        (
            "I'm thinking of going to the gym tonight.",
            "Good idea.",
            "How much am I paying for it these days?",
        ),
        ("gym_switch",),
    ),
    Q(
        "followup",
        ("Rosa texted me.", "Your cleaner?", "Which day is she coming now?"),
        ("cleaner_day_change",),
    ),
    Q(
        "followup",
        (
            "I'm packing for a long-haul flight.",
            "Where to?",
            "Should I take something to help me sleep on it?",
        ),
        ("sleep",),
    ),
    Q(
        "followup",
        ("Noor called yesterday.", "How is your sister?", "Remind me which city she lives in now."),
        ("noor_moved",),
    ),
    Q(
        "followup",
        ("Lena's school called.", "Everything okay?", "Which days am I supposed to collect her?"),
        ("kid_lena_school_pickup",),
    ),
    Q(
        "followup",
        ("I'm going to the office tomorrow, Thursday.", "Okay.", "Is that one of my usual days?"),
        ("office_days_change",),
    ),
    Q(
        "followup",
        ("My guitar teacher emailed.", "Mr. Evans?", "When's the lesson this week?"),
        ("guitar_lesson_change",),
    ),
    Q(
        "followup",
        (
            "The council sent a letter about rubbish collections.",
            "What did it say?",
            "Remind me which day it happens now.",
        ),
        ("general_waste_day",),
    ),
)

KINDS: tuple[str, ...] = ("direct", "paraphrase", "update", "multi", "followup")

SUPERSEDED: dict[str, str] = {
    "dentist_rescheduled": "dentist_checkup",
    "lena_swimming_saturdays": "lena_swimming",
    "dog_walker_tomasz": "dog_walker",
    "rent_increase": "landlord_rent",
    "reorg_manager": "manager",
    "office_days_change": "office_days",
    "summer_trip_dates_moved": "summer_trip",
    "car_insurance_switch": "car_insurance",
    "mobile_plan_switch": "mobile_plan",
    "gym_switch": "gym_membership",
    "guitar_lesson_change": "guitar",
    "book_club_next_book": "books",
    "standup_change": "standup",
    "work_laptop_macbook": "work_laptop",
    "coffee_decaf": "coffee_order",
    "half_marathon_target": "running",
    "biscuit_vet_change": "dog",
    "oncall_swap": "oncall_rotation",
    "atlas_deadline_moved": "project_atlas",
    "noor_moved": "sister_noor",
    "cleaner_day_change": "cleaner_rosa",
    "knee_physio_fortnightly": "knee_physio",
    "mentoring_friday": "mentoring_aisha",
    "general_waste_day": "bin_collections",
}
"""For each `update` answer, the older entry on the same subject that is still stored.

Nothing links them in the store (no `supersedes`): the selectors have to notice on their own.
"""
