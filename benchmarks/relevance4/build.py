#!/usr/bin/env python3
"""Build a development evaluation set for a memory selector.

Persona: Aoife Brennan, 39, secondary-school music teacher, Ireland.
Written by hand from a task description. Standard library only, deterministic.
Run: python3 build.py  -> writes set.json and README.md next to this file.
"""
import json, os, random, re, sys

ENTRIES = []
QUESTIONS = []


def E(key, value, days, typ, desc=None):
    ENTRIES.append({"key": key, "value": value, "days_ago": float(days),
                    "type": typ, "description": desc})


def Q(qid, kind, turns, answers, stale=()):
    if isinstance(turns, str):
        turns = [turns]
    QUESTIONS.append({"id": qid, "kind": kind, "turns": list(turns),
                      "answers": list(answers), "stale": list(stale)})

# ---------------------------------------------------------------------------
# MEANINGFUL ENTRIES (written one by one)
# ---------------------------------------------------------------------------
# identity / stable
E("me/basics", "Aoife Brennan, born 1987 in Oughterard, secondary-school music teacher; plays piano, fiddle and some cello", 1050, "fact", "who I am")
E("birthday", "My birthday is 17 April", 1040, "fact", None)
E("pps_reminder", "PPS number is on the blue folder in the hall press; never paste it into chats", 900, "note", "where ID documents are kept")
E("languages", "Fluent Irish (teach through it occasionally), decent French, tiny bit of Portuguese from Duolingo", 700, "fact", None)

# home: three versions
E("home/flat_salthill", "Rent a one-bed plus boxroom over the chemist on Threadneedle Road, Salthill, Galway; €1,150 a month", 1000, "fact", "Galway rental")
E("landlord", "Landlord is Mr. Concannon; he calls round the first Monday of the month and prefers cash", 990, "fact", None)
E("moved_house", "Signed a lease on a semi-d on Maryborough Hill, Douglas, Cork; keys collected 14 August", 470, "event", "the Cork move")
E("rent_douglas", "Douglas semi-d rent is €1,980, paid by standing order to Lee Lettings on the 1st", 465, "fact", None)
E("house_purchase", "Sale closed on 4 Ashgrove Terrace, Blackrock - ours at last, moved in over the October midterm", 33, "event", "bought a house")
E("mortgage", "AIB mortgage: €1,640 a month, fixed for 4 years, debit on the 3rd", 45, "fact", "home loan")
E("eircode", "Eircode for Ashgrove Terrace is T12 X7P4", 38, "fact", None)

# work
E("work/st_endas", "Teach music at St. Enda's College, Galway: junior cycle choir and Leaving Cert music, 22 hours a week", 1000, "fact", "job in Galway")
E("new_job_cork", "Started in September as head of music at Douglas Community School", 450, "event", "new job")
E("principal", "Principal in Douglas is Mr. Donal Kiely; deputy is Fiona Lynch (she handles subs and cover)", 440, "fact", "school management")
E("timetable_2025", "Timetable 2025/26: free third class Mondays and Wednesdays, choir at Tuesday lunch", 420, "fact", None)
E("timetable_2026_27", "This year I'm free first thing Thursday; orchestra now Friday 4 to 5:15; choir moved to Wednesday after school", 85, "fact", "school timetable this year")
E("salary", "On point 18 of the teacher scale, about €61k gross", 800, "fact", None)
E("pay_2026", "Post-holder allowance came through: gross pay now €68,400", 110, "fact", "pay")
E("school_it_policy", "School email password must change every 90 days, minimum 10 characters", 900, "note", "IT rules at St. Enda's")
E("it_policy_2026", "ETB rule: passphrases of 16+ characters, no forced changes any more, Microsoft Authenticator required on a phone", 120, "note", None)
E("school_email", "Work email is aoife.brennan@dcs-example.ie (Outlook, Teams for classes)", 445, "fact", None)

# phone
E("phone_number", "Mobile 087 314 2290 on Three", 950, "fact", "my number")
E("new_mobile", "Ported to Eir bill-pay and got a new number: 085 771 4036", 300, "event", None)

# partner
E("declan", "Partner Declan Hynes, sound engineer; together nine years, he's the kids' dad", 1000, "fact", "partner")
E("separation", "Declan and I separated before Christmas; he is staying in Galway", 720, "event", None)
E("ruairi", "Seeing Ruairi Walsh, a boatbuilder from Crosshaven; met him at the jazz festival", 260, "event", "new relationship")
E("ruairi_movein", "Ruairi is moving in with us at Ashgrove Terrace; his workshop stays in Crosshaven", 30, "decision", None)

# kids
E("kids", "Two kids: Cian (born 2013) and Saoirse (born 2017)", 1000, "fact", "children")
E("cian/school", "Cian is in 5th class at Scoil Iognaid, Galway", 960, "fact", None)
E("cian_secondary", "Cian started first year at Douglas Community School - my school, he is mortified", 450, "event", "Cian secondary school")
E("saoirse school", "Saoirse is in 1st class at Scoil Rois on Taylor's Hill", 960, "fact", None)
E("saoirse/new_school", "Saoirse joined 3rd class in Scoil Nano Nagle, Douglas; teacher is Ms. Twomey", 440, "event", "Saoirse school in Cork")
E("saoirse_4th_class", "Saoirse is in 4th class with Mr. Dineen this year - she adores him", 88, "fact", "Saoirse this school year")
E("childminder", "Bernie Folan minds Saoirse Tuesday and Thursday afternoons, €12 an hour", 950, "fact", "childcare Galway")
E("after_school", "Saoirse goes to Little Acorns after-school club Mon-Thu until 5:30; Cian lets himself in", 400, "fact", "childcare")
E("cian/hurling", "Cian plays hurling with Salthill-Knocknacarra U12s, training Wednesday 6pm", 950, "fact", None)
E("cian_rowing", "Cian gave up hurling; rowing at Shandon Boat Club on Saturday mornings 8:30", 200, "event", "Cian sport")
E("saoirse/violin", "Saoirse learns violin from me at home, Grade 1", 900, "fact", None)
E("saoirse_lessons", "Saoirse has violin with Ms. Hurley at the Cork School of Music, Saturdays 11am", 350, "fact", "Saoirse music lessons")
E("cian_allergy", "Cian is allergic to cashews and pistachios - EpiPen in his schoolbag", 980, "fact", "kid allergy")
E("saoirse_glasses", "Saoirse needs glasses for reading, +1.5, from Specsavers Douglas", 150, "fact", None)
E("custody", "Kids go to Declan every second weekend; handover Sunday 6pm at the Applegreen off the M18 near Limerick", 440, "fact", "custody arrangement")
E("custody_2026", "From September: kids are with Declan the first and third weekend of each month; he collects them Friday from Douglas", 80, "decision", None)

# doctors / health
E("gp", "GP: Dr. Mary Fahy, Newcastle Road surgery, Galway", 960, "fact", "doctor")
E("doctor_douglas", "Registered with Dr. Chidi Okafor at Douglas Medical Centre; line 021 489 1122", 430, "fact", None)
E("dentist", "Dentist is Aidan Moloney on Shop Street", 900, "fact", None)
E("teeth/new_dentist", "Cleaning with Dr. Sinead Cronin at Grange Dental, Frankfield; back every six months", 380, "fact", "dentist Cork")
E("asthma", "Mild asthma; blue Ventolin inhaler, worse in cold damp weather", 1000, "fact", "health")
E("penicillin", "Allergic to penicillin - rash and swelling", 1000, "fact", "drug allergy")
E("iron_tablets", "Bloods showed low ferritin; take one Ferrograd every morning", 500, "note", None)
E("iron_stopped", "June bloods were fine; Dr Okafor said I can stop the iron", 160, "event", None)
E("wrist", "Physio says the right wrist tendonitis comes from piano plus marking; brace at night", 150, "note", "wrist")
E("physio", "Physio is Gearoid at Motion Physio, Douglas Court, €60 a session", 145, "fact", None)

# car
E("car", "2012 Toyota Yaris, silver, reg 12-G-4471", 1000, "fact", "my car")
E("sold_yaris", "Sold the Yaris to a student from NUIG for €3,200", 480, "event", None)
E("skoda", "Bought a 2019 Skoda Octavia estate, dark blue, 191-C-20583 - the cello and keyboard both fit", 470, "event", "current car")
E("insurance_car", "FBD motor insurance renews 12 March, €690", 700, "fact", None)
E("car_cover", "Moved motor cover to AXA: €815 a year, renews 9 September, Ruairi is a named driver", 100, "fact", "car insurance")
E("nct", "Octavia NCT due May 2027", 90, "fact", None)

# pets
E("dog_biscuit", "Biscuit, our 11-year-old beagle; vet is Salthill Vets", 950, "fact", "pet")
E("biscuit_died", "Biscuit was put to sleep in March; ashes in the blue tin on the piano", 620, "event", None)
E("pepper", "Adopted Pepper, a rescue greyhound from Cork Dog Action Welfare; she's scared of wheelie bins", 250, "event", "our dog")
E("vet", "Pepper's vet: Dr Pat Hegarty, Maryborough Vets; booster due in March", 240, "fact", None)

# diet: three versions
E("diet", "Doing keto with Declan - no bread, lots of cheese", 950, "preference", "diet")
E("pescatarian", "Stopped eating meat; fish is still fine", 500, "preference", None)
E("plant_based", "Fully vegan since New Year - no fish, no dairy, no eggs", 330, "preference", "what I eat")
E("coffee", "Flat white with oat milk, no sugar", 320, "preference", None)

# exercise / routines
E("running", "Run the Salthill prom at 6:30 on Tuesdays and Thursdays", 900, "fact", "exercise")
E("gym", "Joined Douglas Leisure Centre; spin Monday and Wednesday 7pm", 380, "event", None)
E("sea_swims", "Quit the leisure centre in October. Now cold-water swims at Myrtleville on Sunday mornings with the Bluetits", 55, "event", "exercise now")
E("sunday_routine", "Sunday evenings: ring Mam at 7, iron uniforms, plan lessons", 800, "fact", None)
E("bedtime", "Trying to be in bed by 10:45 on school nights", 200, "preference", None)

# budget / money
E("budget/monthly", "Household budget: groceries €450 a month, €100 kids' stuff", 800, "decision", "budget")
E("budget_2026", "Ruairi and I pooled money: food €620, kids' activities €180, savings €300, date night €80", 35, "decision", None)
E("bank", "Current account with Bank of Ireland, Eyre Square branch", 1000, "fact", None)
E("switched_bank", "Moved salary to AIB when the mortgage was approved; BOI account closed", 60, "event", "bank")
E("electricity", "Electric Ireland, roughly €110 a month", 900, "fact", None)
E("energy/supplier", "Gas and electricity with Bord Gais Energy, both names on the account, €190 a month by direct debit", 35, "fact", "utilities")
E("wifi", "Virgin Media 250Mb broadband", 900, "fact", None)
E("internet", "Pure Telecom fibre installed 2 November; router is in the under-stairs press", 30, "event", None)
E("bins", "City Bin, black and green out on Tuesday nights", 900, "fact", None)
E("bin_day", "Country Clean collect on Thursday; green and black alternate weeks, brown every week", 30, "fact", "bin collection")

# music projects
E("album", "Recording an EP of sean-nos arrangements called 'Tidewater', Declan producing", 900, "note", "EP project")
E("ep_low_light", "The record is now 'Low Light'; tracking at Wavefield studio with producer Kev Barry", 200, "decision", None)
E("ep_release", "Low Light release gig pencilled for 6 March in Coughlan's", 40, "decision", "release plan")
E("salthill_singers", "Run the Salthill Singers community choir, Thursdays 8pm in the parish hall", 950, "fact", "choir")
E("harbour_voices", "Started 'Harbour Voices' in Douglas - rehearsals Tuesday 7:30 in St Columba's hall", 300, "event", None)
E("harbour_voices_concert", "Harbour Voices Christmas concert: 19 December, St Finbarr's, 8pm; soprano folder needs more copies", 20, "event", None)
E("piano_tuner", "Seamus from Tuam tunes the piano every spring", 900, "fact", None)
E("piano_tuning", "Ollie Desmond tunes the upright twice a year, €95; last done in September", 90, "fact", "piano tuner")
E("fiddle", "Fiddle is a 1920s German copy; bow rehair at Lawlor's every 18 months", 700, "fact", None)
E("gigs_pub", "Trad session in Tigh Coili on Mondays", 950, "fact", None)
E("session_cork", "Play the Thursday trad session in Sin E on Coburg Street now", 250, "fact", "trad session")

# restaurants / food
E("fav_restaurant", "Ard Bia at Spanish Arch is our place for anniversaries", 950, "preference", "favourite restaurant")
E("restaurants/favourite", "Go-to now is Good Day Deli in Nano Nagle Place; for takeaway, Miyazaki (vegan ramen on Fridays)", 150, "preference", None)
E("takeaway", "Friday takeaway is the chipper on Dominick Street", 950, "preference", None)

# appointments
E("dentist_appt", "Cleaning at Grange Dental on 14 January at 10am", 50, "event", "dentist appointment")
E("grange_rang", "Grange Dental rang: cleaning moved to Friday 22 January, 4:15", 12, "event", None)
E("ptm", "Parent-teacher meeting for Saoirse: 10 December 3:40 with Ms. Twomey", 25, "event", None)
E("smear", "CervicalCheck smear with the practice nurse, booked 9 January 9:20", 18, "event", None)
E("hair", "Hair done at Peter Mark on Eyre Square", 950, "fact", None)
E("haircut", "Zoe at Snip in Douglas Village does my hair every 8 weeks, next 18 December", 60, "fact", "hairdresser")
E("optician", "Eye test every two years; mine is due February", 120, "note", None)

# trips
E("lisbon_trip", "Booked Lisbon for Easter with the kids: Ryanair from Cork, 28 March", 150, "event", "Easter trip")
E("lisbon_cancelled", "Lisbon cancelled - Cian's rowing camp in Fermoy is that week", 90, "event", None)
E("porto_june", "Rebooked: Porto 29 June to 5 July on Aer Lingus, Airbnb in Ribeira", 85, "event", "summer trip")
E("kerry_midterm", "February midterm: cottage near Dingle, 16-19 Feb, Ruairi driving", 20, "decision", None)
E("passport", "Passports: mine expires 2029; Saoirse's child passport expires August 2027", 100, "note", "passports")

# family
E("mam", "Mam (Brid) lives alone in the farmhouse outside Oughterard", 1000, "fact", "my mother")
E("mam_moved", "Mam sold up and moved into a retirement apartment in Knocknacarra, near Clodagh's old school", 200, "event", None)
E("clodagh", "Sister Clodagh lives in Boston, nurse at Mass General; five hours behind", 1000, "fact", "sister")
E("dad_anniversary", "Dad's anniversary mass is every 3 November in Oughterard", 1000, "fact", None)
E("emergency_contact", "Emergency contact: Mam, 091 552 301", 900, "fact", None)
E("ice_contact", "School and GP now have Ruairi as my emergency contact: 086 229 5170", 100, "fact", "emergency contact")
E("ruairi_family", "Ruairi's parents Tom and Peg live in Crosshaven; Sunday dinner there once a month", 120, "fact", None)

# preferences / misc
E("reading", "Reading crime novels - Tana French, Liz Nugent", 700, "preference", None)
E("podcast", "Listen to 'The Blindboy Podcast' on the drive", 300, "preference", None)
E("allergy_cats", "Mildly allergic to cats - so no cats in the house", 950, "fact", None)
E("weekend_pref", "Like a slow Saturday morning; no plans before 10", 600, "preference", None)
E("gift_ideas", "Cian wants a Garmin watch; Saoirse wants a Lego Friends set", 30, "note", "Christmas gift ideas")
E("library", "Library card for Douglas library, renew online", 300, "fact", None)
E("laptop", "School laptop is a Lenovo ThinkPad; personal is an old MacBook Air 2017", 500, "fact", None)
E("password_manager", "Use Bitwarden for passwords; recovery kit in the fireproof box", 250, "decision", None)
E("commute", "Walk 15 minutes to St. Enda's", 950, "fact", None)
E("commute_cork", "Cycle to school on the old railway line, 20 minutes from Blackrock", 25, "fact", "commute")

# --- second batch of meaningful entries ---
# school roles and projects
E("year_head", "Year head for 3rd years at St. Enda's - discipline notes every Friday", 820, "fact", None)
E("tutor_5c", "Class tutor for 5C this year; their assembly slot is Monday 8:50", 85, "fact", "tutor group")
E("musical_plan", "Spring musical pencilled in as Grease", 150, "decision", "school musical")
E("musical_switch", "Couldn't get the rights in time - we're doing Annie instead, shows 10-12 March 2027", 60, "decision", None)
E("musical_2025", "Directed 'Oliver!' at St. Enda's; sold out three nights", 950, "event", None)
E("star_pupil", "Niamh Barrett, 6th year, is going for the RIAM scholarship - extra lesson Mondays at 4", 60, "note", "scholarship student")
E("school_orchestra", "School orchestra has 24 players; two cellos, no viola, far too many flutes", 80, "fact", None)
E("school_calendar", "School breaks for Christmas at 12:30 on Friday 18 December; back 6 January", 30, "fact", "school holidays")
E("school_parking", "Staff car park is full by 8:15; overflow in the church car park on Carr's Hill", 400, "fact", None)
E("union_asti", "ASTI member, subscription comes out of the payslip", 820, "fact", None)
E("union_tui", "Joined the TUI when I moved to the ETB school; Fiona is the school rep", 430, "event", "teachers' union")
E("masters_idea", "Thinking about a Masters in Music Education at some point", 600, "note", None)
E("ma_ucc", "Accepted onto the part-time MA in Music Education at UCC; lectures Tuesday evenings 6-9 from 12 January", 25, "event", "postgrad course")
E("lc_practicals", "Leaving Cert music practical exams are in the week of 16 March", 30, "fact", None)
E("conference", "PPMTA music teachers' conference in Athlone on 6 February, hotel booked", 40, "event", "conference")
E("conference_online", "Athlone is off - the association moved the whole day onto Teams, same date; cancelled the Hodson Bay room", 10, "event", None)

# choir, gigs, instruments
E("choir_accompanist", "Denis plays for Harbour Voices, €40 a rehearsal", 250, "fact", None)
E("new_accompanist", "Mairead Coakley is our rehearsal pianist since Denis left for Dublin", 40, "fact", "choir pianist")
E("choir_fees", "Harbour Voices members pay €60 a term; treasurer is Gerry", 280, "fact", None)
E("wedding_gigs", "Wedding ceremony music with Sinead on harp - we charge €450", 700, "fact", "wedding gigs")
E("wedding_rate", "Ceremony duo with Ruth (harp) now: €550, travel extra outside Cork", 100, "decision", None)
E("instrument_insurance", "Cello, fiddle and keyboard are covered on the house policy with Allianz, all-risks", 30, "fact", None)
E("cello", "Cello is a full-size Hofner hired from Waltons, €25 a month", 500, "fact", None)
E("cello_bought", "Bought the hired Hofner cello outright - rental payments counted towards it", 140, "event", "cello")

# kids: more
E("screen_time", "No screens on school nights, full stop", 900, "decision", None)
E("screen_rules_2026", "Kids get an hour a day after homework; phones go in the kitchen basket at 9", 70, "decision", "screen time rules")
E("pocket_money", "Cian €5 a week, Saoirse €3", 700, "decision", None)
E("allowance", "Cian gets €10 a week on Revolut Junior; Saoirse €5 in cash for the piggy bank", 50, "decision", "kids' pocket money")
E("saoirse/swim", "Saoirse's swimming lessons at Leisureland, Saturday 9:30", 900, "fact", None)
E("saoirse_gymnastics", "Saoirse gave up swimming lessons; gymnastics at the Douglas GAA hall Thursday 5:45", 120, "event", "Saoirse activities")
E("cian_phone", "Cian has his first phone, an old iPhone SE, with Screen Time set to 2 hours", 200, "event", None)
E("cian_birthday", "Cian's birthday is 9 September", 1000, "fact", None)
E("saoirse_birthday", "Saoirse's birthday is 22 May - she wants a disco party", 120, "fact", None)
E("booster_seat", "Saoirse still uses the high-back booster in the car until she's 150cm", 200, "note", None)
E("cian_braces", "Cian is getting braces in January with the orthodontist in Wilton; €3,800 total, paying in four", 45, "decision", "Cian teeth")
E("acorns_fee", "Little Acorns costs €95 a week", 390, "fact", None)
E("acorns_fee_2026", "After-school club went up to €110 a week in September; NCS subsidy knocks €24 off", 90, "fact", "childcare cost")

# family
E("declan_moved", "Declan took a job in a studio in Limerick and moved there in the summer", 150, "event", "where Declan lives")
E("declan_contact", "Declan's number for the kids: 087 660 1294", 700, "fact", None)
E("mam_phone", "Mam's landline 091 552 301 - she doesn't do mobiles", 1000, "fact", None)
E("mam_mobile", "Mam finally has a mobile: 083 410 9987; the landline went when she sold the house", 190, "event", "Mam's phone")
E("clodagh_visit", "Clodagh and the twins are home for Christmas, landing Shannon 21 December", 25, "event", None)
E("christmas_2025", "Christmas 2025 at Declan's mother's in Barna with the kids", 400, "event", None)
E("christmas_plan", "Christmas Day this year at ours in Blackrock; kids go to their dad on St Stephen's Day", 15, "decision", "Christmas arrangements")
E("ruairi_birthday", "Ruairi's birthday is 3 January", 200, "fact", None)
E("ruairi_boat", "Ruairi is restoring a 1960s wooden sailing dinghy called Fainne", 150, "fact", None)
E("anniversary", "First date with Ruairi: jazz weekend, 25 October last year", 260, "fact", "our anniversary")
E("my_40th", "Turning 40 in April - want a small session in Sin E, not a big party", 20, "preference", None)
E("best_friend", "Sile in Galway is my best friend; we ring on Wednesday nights", 950, "fact", None)
E("friends_cork", "My Cork people: Mairead from choir and Fiona from work", 100, "fact", None)

# health more
E("glasses", "Glasses for driving, -2.0 both eyes", 900, "fact", "eyes")
E("contacts", "Switched to daily contact lenses (Dailies Total1, -2.25); glasses only at night now", 110, "event", None)
E("vhi", "Health insurance with VHI on Declan's family plan", 950, "fact", None)
E("health_insurance", "Own policy with Laya Healthcare now, kids included; renews 1 February", 400, "fact", "health insurance")
E("counselling", "Seeing a counsellor, Orla, online every second Thursday", 600, "fact", None)
E("counselling_done", "Finished up with Orla in May; can book a check-in if things get heavy", 200, "event", None)
E("b12", "Taking a B12 spray every morning since going vegan", 320, "note", "supplement")
E("pharmacy", "Prescriptions go through Hickey's pharmacy in Douglas", 400, "fact", None)
E("flu_vaccine", "Got the flu jab at Hickey's on 20 October", 43, "event", None)

# food and drink
E("americano", "Coffee: black americano with a splash of regular milk", 950, "preference", "coffee")
E("wine", "Favourite wine is a Rioja; one glass on a Friday", 800, "preference", None)
E("not_drinking", "Sober October turned into not drinking at all - alcohol-free Guinness if anything", 50, "decision", "alcohol")
E("special_occasion", "Special occasions now: Paradiso on Lancaster Quay (fully veg tasting menu)", 100, "preference", None)
E("tea", "Barry's Gold Blend, strong, oat milk", 300, "preference", None)
E("shop_galway", "Big weekly shop in Dunnes Terryland on Thursday evenings", 950, "fact", None)
E("weekly_shop", "Saturday big shop at Aldi Carrigaline after dropping Cian to rowing", 60, "fact", "weekly shop")

# home admin
E("spare_key_galway", "Spare key is with the chemist downstairs", 950, "fact", None)
E("spare_key", "Marian at no. 6 has our spare key", 30, "fact", "spare key")
E("neighbour", "Marian at no. 6 is a retired nurse; happy to let Pepper out if we're late", 28, "fact", None)
E("house_todo", "To do: paint Saoirse's room lilac, fix the back gate latch, blind for the landing", 20, "note", None)
E("solar_quote", "Solar quote €7,900 after the SEAI grant; decide in spring", 15, "decision", None)
E("garden", "Small south-facing back garden; want raised beds for herbs", 25, "preference", None)
E("home_insurance", "House insurance with Allianz, renews 20 October, includes instruments", 40, "fact", "home insurance")
E("passwords_notebook", "Passwords written in the red notebook in the desk drawer", 900, "note", None)
E("netflix_old", "Netflix standard plan, shared with Declan", 900, "fact", None)
E("streaming", "Cancelled Netflix; kept Disney+ for Saoirse and the family Spotify", 50, "decision", "subscriptions")

# pet more
E("pepper_walks", "Pepper needs two 20-minute walks; muzzle on in the park because she chases small dogs", 230, "note", None)
E("pepper_food", "Pepper eats Burns Sensitive, two cups a day", 200, "fact", None)
E("pepper_food_change", "Vet moved Pepper onto Hill's i/d for her tummy, 1.5 cups twice a day", 40, "decision", "dog food")

# money / car more
E("porto_savings", "Saving €3,000 for the summer trip by May; €1,100 so far", 30, "note", None)
E("toll_tag", "Easytrip toll tag on the Octavia", 460, "fact", None)
E("ev_plan", "Next car will be electric, maybe 2028", 30, "decision", None)
E("porto_flights", "Aer Lingus EI 486 Cork to Porto, leaves 07:05 on 29 June; back 5 July 19:40", 84, "fact", "flight times")
E("bookclub", "Joined the Blackrock library book club, last Monday of the month", 30, "event", None)

# --- third batch of meaningful entries ---
E("ruairi_work", "Ruairi works out of the boatyard in Crosshaven, roughly 7 till 4", 200, "fact", None)
E("ruairi_food", "Ruairi eats anything except coriander; happy to go veggie at home", 150, "preference", None)
E("cian_friend", "Cian's best mate is Oisin Cotter from rowing; Oisin's mum Jen does lifts on alternate Saturdays", 150, "fact", None)
E("saoirse_friend", "Saoirse's best friend Lily lives at no. 11 Ashgrove; sleepovers negotiated weekly", 25, "fact", None)
E("kids_diet", "The kids aren't vegan - they eat meat at their dad's and fish at home", 300, "decision", "kids' food")
E("cian_grinds", "Cian has online maths grinds with Mr. Kenny, Thursdays 7pm, €30", 60, "fact", None)
E("sick_galway", "Off sick: ring the St. Enda's office before 8 and email Mr. Greaney", 900, "note", None)
E("sick_day_process", "If I'm sick, text Fiona Lynch before 7:30 so she can book a sub, then log it on VSware", 430, "note", "calling in sick")
E("morning_galway", "Up at 7, drop both kids at the school gate at 8:20, walk on to work", 900, "fact", None)
E("morning_routine", "Up at 6:15, walk Pepper, kids out the door 8:05, I cycle in with Cian", 25, "fact", "mornings")
E("credit_union", "Emergency fund of €2,000 in Douglas Credit Union", 200, "fact", None)
E("flat_rate_expenses", "Claimed the teachers' flat-rate expenses on myAccount for 2025", 100, "event", None)
E("youtube_channel", "Started a YouTube channel 'Fiddle Fridays' with beginner tunes", 500, "event", None)
E("channel_rename", "Renamed the channel 'Aoife Plays' since it's not just fiddle any more; uploads every second Sunday", 90, "decision", "YouTube channel")
E("choral_piece", "Writing a choral piece for Harbour Voices called 'Lee Crossing' for the spring concert", 60, "note", None)
E("choral_piece_title", "Retitled the new choir piece 'Tidal Bridge' - premiere at the spring concert", 15, "decision", "my composition")
E("rowing_camp", "Cian's rowing camp in Fermoy runs the whole of Easter week", 92, "event", None)
E("galway_visits", "Drive up to see Mam once a month, the Saturday after payday", 150, "fact", None)
E("music_taste", "Listening to a lot of Lisa O'Neill and Lankum lately", 200, "preference", None)
E("teaching_fav", "Favourite thing to teach is Bach chorales - the kids pretend to hate them", 600, "preference", None)
E("holiday_style", "Prefer a city with good food over a beach holiday", 300, "preference", "holidays")
E("always_cold", "Always cold: electric blanket from October to April", 300, "preference", None)
E("phone_handset", "iPhone 12 with the cracked corner", 700, "fact", None)
E("new_phone", "Got a Pixel 8 with the Eir contract; old iPhone went to Cian", 295, "event", "phone")
E("personal_email", "Personal email: aoifebrennan.music@gmail.com", 1000, "fact", None)
E("family_passwords", "Family rule: the kids never share passwords with friends; Cian's account is under Family Link", 200, "decision", None)
E("car_service", "Octavia gets serviced at Frank Hogan every 15,000 km; last at 98,400 km", 100, "fact", None)
E("parking_permit_school", "School staff parking permit needs renewing in January", 40, "note", "parking permit")
E("eye_test_booked", "Eye test booked: Thursday 11 February, 5pm, Specsavers Douglas", 10, "event", None)
E("physio_booking", "Next physio: Monday 7 December at 5pm", 14, "event", None)
E("physio_moved", "Gearoid had to shuffle things - I'm on Wednesday 9 December, 4:30 instead", 5, "event", "physio appointment")
E("gift_ruairi", "Thinking of a Japanese pull saw for Ruairi for Christmas", 10, "note", None)
E("kris_kindle", "Staff Kris Kindle: I got Mr. Kiely, €20 limit", 8, "event", None)
E("volunteering", "Volunteer at Cork Penny Dinners one Saturday a month", 150, "fact", None)
E("pet_insurance", "Pepper is insured with Allianz Pet, €22 a month", 240, "fact", "pet insurance")
E("saturday_lunch", "Saturday lunch treat: falafel from the Rocket Man in the English Market", 100, "preference", None)
E("mam_health", "Mam has type 2 diabetes and a bad hip; checks on her are usually by phone", 300, "fact", "Mam's health")
E("cian_personality", "Cian is quiet, loves history and Warhammer; hates being fussed over", 300, "note", None)
E("saoirse_personality", "Saoirse is loud, dramatic, wants to be on stage; scared of the dark", 300, "note", None)
E("kids_dentist", "Both kids go to Grange Dental too, check-ups every six months", 370, "fact", None)
E("home_phone_galway", "Flat had no landline; used the mobile for everything", 1000, "fact", None)
E("work_laptop_policy", "School rule: no student data on personal devices or USB sticks", 420, "note", None)

# === MORE ENTRIES ===

# ---------------------------------------------------------------------------
# QUESTIONS (written one by one)
# ---------------------------------------------------------------------------

# --- update (current state of something that changed) ---
Q("u001", "update", "Where do I actually live these days? I need the full address for a form.", ["house_purchase", "eircode"], ["moved_house", "home/flat_salthill"])
Q("u002", "update", ["What's a good warm-up for a choir of fifteen-year-olds?", "Grand. Find me a takeaway that will deliver to the house tonight."],
  ["house_purchase", "restaurants/favourite"], ["moved_house", "home/flat_salthill", "takeaway"])
Q("u003", "update", "Roughly how much goes out on housing every month now?", ["mortgage"], ["rent_douglas", "home/flat_salthill"])
Q("u004", "update", ["Remind me of the chords for Siuil a Ruin in G?", "Also, who am I meant to pay the rent to on the first?"],
  ["mortgage", "house_purchase"], ["rent_douglas", "landlord"])
Q("u005", "update", "Which school am I teaching in at the moment?", ["new_job_cork"], ["work/st_endas"])
Q("u006", "update", ["Draft me a short, friendly email sign-off.", "Put my current job title and school under my name."],
  ["new_job_cork", "school_email"], ["work/st_endas"])
Q("u007", "update", "When's my free class this year?", ["timetable_2026_27"], ["timetable_2025"])
Q("u008", "update", ["My cousin Deirdre wants ideas for a 40th party.", "Something outdoorsy maybe?", "Unrelated: which afternoon is the school choir on now?"],
  ["timetable_2026_27"], ["timetable_2025"])
Q("u009", "update", "What's my gross salary right now? The broker wants it for the mortgage top-up.", ["pay_2026"], ["salary"])
Q("u010", "update", "What are the rules for my work password these days?", ["it_policy_2026"], ["school_it_policy"])
Q("u011", "update", ["Write a haiku about rain on a school roof.", "IT sent a reminder - do I still have to change my school login every few months?"],
  ["it_policy_2026"], ["school_it_policy"])
Q("u012", "update", "What's my mobile number? I never remember it.", ["new_mobile"], ["phone_number"])
Q("u013", "update", ["What's the capital of Slovenia?", "Fill in my contact number on this rowing club form for me."], ["new_mobile"], ["phone_number"])
Q("u014", "update", "Who am I going out with at the moment, for the record?", ["ruairi", "ruairi_movein"], ["declan"])
Q("u015", "update", ["Recommend a film for a wet Friday night.", "Something without subtitles.", "Who should I list as my partner on the home insurance?"],
  ["ruairi_movein", "ruairi"], ["declan"])
Q("u016", "update", "What school is Cian in now?", ["cian_secondary"], ["cian/school"])
Q("u017", "update", ["How long do I roast chickpeas for?", "What's the name of Saoirse's teacher this year?"], ["saoirse_4th_class"], ["saoirse/new_school", "saoirse school"])
Q("u018", "update", "Who looks after Saoirse after school these days?", ["after_school"], ["childminder"])
Q("u019", "update", "What time do I have to drop Cian to his sport on Saturday?", ["cian_rowing"], ["cian/hurling"])
Q("u020", "update", ["Any tips for getting through 80 essays fast?", "Where does Saoirse have her violin lessons now?"], ["saoirse_lessons"], ["saoirse/violin"])
Q("u021", "update", "Which weekends are the kids with their dad?", ["custody_2026"], ["custody"])
Q("u022", "update", ["Is Bach older than Handel?", "By how much?", "Where do I meet Declan for the handover this Friday?"], ["custody_2026"], ["custody"])
Q("u023", "update", "Who's my GP these days?", ["doctor_douglas"], ["gp"])
Q("u024", "update", ["What rhymes with harbour?", "I need the doctor's number, I'm ringing in sick."], ["doctor_douglas"], ["gp"])
Q("u025", "update", "Which dentist am I with now?", ["teeth/new_dentist"], ["dentist"])
Q("u026", "update", "When is my next dental cleaning?", ["grange_rang"], ["dentist_appt"])
Q("u027", "update", ["Name three Baroque composers who aren't Bach.", "Am I still meant to be taking the iron tablets?"], ["iron_stopped"], ["iron_tablets"])
Q("u028", "update", "What car do I drive now?", ["skoda"], ["car"])
Q("u029", "update", ["Translate 'good luck' into Irish.", "And 'well done'?", "The school needs my reg for the parking permit."], ["skoda"], ["car"])
Q("u030", "update", "Who's the car insured with and when does it renew?", ["car_cover"], ["insurance_car"])
Q("u031", "update", ["Give me a name for a choir fundraiser.", "Can Ruairi legally drive my car?"], ["car_cover"], ["insurance_car"])
Q("u032", "update", "The pet sitter is asking what our dog is called and what she's like.", ["pepper"], ["dog_biscuit"])
Q("u033", "update", ["Suggest a name for a school bake sale.", "Which vet do we bring the dog to?"], ["vet"], ["dog_biscuit"])
Q("u034", "update", "Peg is cooking Sunday dinner for me - what should she know about what I eat?", ["plant_based"], ["pescatarian", "diet"])
Q("u035", "update", ["How do I transpose a part from B flat to concert pitch?", "Would baked salmon be ok for my dinner?"], ["plant_based"], ["pescatarian", "diet"])
Q("u036", "update", "What's my exercise routine these days?", ["sea_swims"], ["gym", "running"])
Q("u037", "update", ["Help me write a card for a colleague who's retiring.", "Make it funnier.", "Am I free Wednesday at 7 or do I have spin class?"], ["sea_swims"], ["gym"])
Q("u038", "update", "How much have we set aside for food each month?", ["budget_2026"], ["budget/monthly"])
Q("u039", "update", "Which bank is my salary going into?", ["switched_bank"], ["bank"])
Q("u040", "update", ["What's 15 percent of 240?", "Who are we with for electricity? There's a man at the door selling."], ["energy/supplier"], ["electricity"])
Q("u041", "update", "The internet is down - who's our provider so I can ring them?", ["internet"], ["wifi"])
Q("u042", "update", "Which night do the bins go out?", ["bin_day"], ["bins"])
Q("u043", "update", ["Any Halloween costume ideas for a 9-year-old?", "How often does the brown bin get collected?"], ["bin_day"], ["bins"])
Q("u044", "update", "What's the EP called now? I'm putting it on the poster.", ["ep_low_light"], ["album"])
Q("u045", "update", ["What's the time difference with Boston?", "Who's producing my record?"], ["ep_low_light"], ["album"])
Q("u046", "update", "When is my community choir rehearsal?", ["harbour_voices"], ["salthill_singers"])
Q("u047", "update", ["Give me a two-minute vocal warm-up.", "Which hall do I need to unlock for choir tonight?"], ["harbour_voices"], ["salthill_singers"])
Q("u048", "update", "Who tunes the piano? I need to book him.", ["piano_tuning"], ["piano_tuner"])
Q("u049", "update", "Where's my weekly trad session on now?", ["session_cork"], ["gigs_pub"])
Q("u050", "update", "Where should we go for a nice sit-down lunch on Saturday?", ["restaurants/favourite", "plant_based"], ["fav_restaurant", "pescatarian", "diet"])
Q("u051", "update", ["How do you spell 'rhythm'?", "Grand. Order our usual Friday takeaway."], ["restaurants/favourite"], ["takeaway"])
Q("u052", "update", "When's my next haircut and where?", ["haircut"], ["hair"])
Q("u053", "update", "Where are we going on holiday next summer?", ["porto_june"], ["lisbon_trip"])
Q("u054", "update", ["Explain a plagal cadence simply.", "Which dates are we away at Easter?"], ["lisbon_cancelled", "porto_june", "rowing_camp"], ["lisbon_trip"])
Q("u055", "update", "Where does Mam live now? I'm posting her a card.", ["mam_moved"], ["mam"])
Q("u056", "update", ["Recommend a good Irish crime novel.", "One I haven't read?", "Who's down as my emergency contact?"], ["ice_contact"], ["emergency_contact"])
Q("u057", "update", "How do I get to work these days and how long does it take?", ["commute_cork"], ["commute"])

# --- drift ---
Q("d001", "drift", ["What's a good substitute for eggs in baking?", "And for butter?", "Separate thing - when is the Harbour Voices Christmas concert?"], ["harbour_voices_concert"])
Q("d002", "drift", ["Explain the circle of fifths to a first year.", "Give me a mnemonic for the order of sharps.", "What is Cian allergic to again?"], ["cian_allergy"])
Q("d003", "drift", ["Write a limerick about a conductor.", "Make the last line land better.", "When's the dog's booster due?"], ["vet"])
Q("d004", "drift", ["What's the difference between a reel and a hornpipe?", "Which is easier on the fiddle for beginners?", "When is Saoirse's parent-teacher meeting?"], ["ptm"])
Q("d005", "drift", ["How do I get candle wax off a tablecloth?", "It's a linen one.", "When's my smear test booked for?"], ["smear"])
Q("d006", "drift", ["Suggest a playlist for a long drive.", "More trad, less pop.", "What's the Eircode for the house? Amazon wants it."], ["eircode", "house_purchase"])
Q("d007", "drift", ["What's the best way to clean a wetsuit?", "Does it need special shampoo?", "When is the launch gig for the record?"], ["ep_release"])
Q("d008", "drift", ["How do I fold a fitted sheet?", "Step by step please.", "When does Saoirse's passport run out?"], ["passport"])
Q("d009", "drift", ["Who wrote 'The Lark in the Clear Air'?", "Give me a simple harmony line.", "When's Dad's anniversary mass?"], ["dad_anniversary"])
Q("d010", "drift", ["What's a good marinade for tofu?", "Make it less spicy for the kids.", "If it's 9pm here, what time is it for Clodagh?"], ["clodagh"])
Q("d011", "drift", ["What are some icebreakers for a new choir?", "Something that works with adults.", "Which inhaler am I supposed to carry?"], ["asthma"])
Q("d012", "drift", ["What's the plural of 'cello'?", "Cellos or celli?", "What did I say the kids wanted for Christmas?"], ["gift_ideas"])
Q("d013", "drift", ["How long should I boil an egg for Cian?", "Soft, runny yolk.", "When is the car's NCT due?"], ["nct"])
Q("d014", "drift", ["Give me a 10-minute stretching routine.", "For tight shoulders.", "What's the plan for the February midterm?"], ["kerry_midterm"])
Q("d015", "drift", ["Is it worth getting a dehumidifier?", "For a small back bedroom.", "Where did I put the recovery kit for my password manager?"], ["password_manager"])

# --- multi ---
Q("m001", "multi", "What should I tell the new dentist about my health before the cleaning?", ["penicillin", "asthma"])
Q("m002", "multi", "Plan my Saturday with the kids.", ["cian_rowing", "saoirse_lessons", "weekend_pref"])
Q("m003", "multi", "Packing list for Cian for the summer trip - what can't we forget, and when do we fly?", ["cian_allergy", "porto_june"])
Q("m004", "multi", "Ruairi's cooking for me and the kids on Sunday - what does he need to know about food?", ["plant_based", "cian_allergy"])
Q("m005", "multi", "Fill in the health questionnaire for me: allergies, conditions and any medication I'm on.", ["penicillin", "asthma", "iron_stopped", "b12"])
Q("m006", "multi", "I'm meeting the mortgage broker. What's my income and what do we already pay monthly for the house?", ["pay_2026", "mortgage"])
Q("m007", "multi", "Make the Harbour Voices concert poster: when, where, and a phone number for tickets.", ["harbour_voices_concert", "new_mobile"])
Q("m008", "multi", "Write a note for the dog-sitter covering her quirks and who to call if she's sick.", ["pepper", "vet"])
Q("m009", "multi", "My wrist is at me again - what did they say it was and who do I book?", ["wrist", "physio"])
Q("m010", "multi", "Which regular household bills go out by direct debit each month?", ["mortgage", "energy/supplier"])

# --- paraphrase ---
Q("p001", "paraphrase", "Could the doctor just give me amoxicillin for this chest infection?", ["penicillin"])
Q("p002", "paraphrase", "Is a bag of trail mix ok to throw in my son's lunchbox?", ["cian_allergy"])
Q("p003", "paraphrase", "It's freezing and foggy - anything I should bring for my chest?", ["asthma"])
Q("p004", "paraphrase", "Would a kitten be a nice surprise for the house?", ["allergy_cats", "pepper"])
Q("p005", "paraphrase", "Will the big instrument fit in the boot if I fold the seats?", ["skoda"])
Q("p006", "paraphrase", "If I finish class at four, is my sister up yet?", ["clodagh"])
Q("p007", "paraphrase", "Who do I grovel to about getting out of yard duty?", ["principal"])
Q("p008", "paraphrase", "What's the name of the fella doing the mixes on my record?", ["ep_low_light"])
Q("p009", "paraphrase", "Is a cheese toastie out for me these days?", ["plant_based"])

Q("u058", "update", ["Can you suggest a simple round for a choir?", "Which class group am I looking after this year?"], ["tutor_5c"], ["year_head"])
Q("u059", "update", ["Is there a good app for learning sight-singing?", "Which musical are we putting on in the spring?"], ["musical_switch"], ["musical_plan"])
Q("u060", "update", ["What's a nice vegan lunchbox idea?", "And one the kids would eat?", "Which union am I in? There's a ballot coming."], ["union_tui"], ["union_asti"])
Q("u061", "update", "Am I actually doing that Masters or was it just talk?", ["ma_ucc"], ["masters_idea"])
Q("u062", "update", ["What's the German for 'choir'?", "Do I need a hotel for the music teachers' conference in February?"], ["conference_online"], ["conference"])
Q("u063", "update", "Who plays piano for the choir rehearsals now?", ["new_accompanist"], ["choir_accompanist"])
Q("u064", "update", ["What's the best way to clean piano keys?", "A couple asked for a quote - what do we charge for ceremony music?"], ["wedding_rate"], ["wedding_gigs"])
Q("u065", "update", ["Give me a tune for a first dance.", "Something in 3/4.", "Am I still paying rental on the cello?"], ["cello_bought"], ["cello"])
Q("u066", "update", ["How many hours of sleep does a 13-year-old need?", "What are the screen time rules in this house now?"], ["screen_rules_2026"], ["screen_time"])
Q("u067", "update", ["What's a good book for a 13-year-old boy?", "How much pocket money does Cian get?"], ["allowance"], ["pocket_money"])
Q("u068", "update", "What's Saoirse's after-school activity on Thursdays?", ["saoirse_gymnastics"], ["saoirse/swim"])
Q("u069", "update", ["How do I get slime out of a carpet?", "Do I need to pack Saoirse's togs for anything this Saturday?"], ["saoirse_gymnastics", "saoirse_lessons"], ["saoirse/swim"])
Q("u070", "update", "How much is the after-school club costing us now?", ["acorns_fee_2026"], ["acorns_fee"])
Q("u071", "update", ["Tell me a joke Saoirse would like.", "Where does the kids' dad live now? I'm planning a drive."], ["declan_moved"], ["separation"])
Q("u072", "update", "What's Mam's number?", ["mam_mobile"], ["mam_phone", "emergency_contact"])
Q("u073", "update", ["What can I bring to a staff potluck?", "Where are we having Christmas dinner this year?"], ["christmas_plan"], ["christmas_2025"])
Q("u074", "update", "Do I wear glasses or contacts these days? It's for the optician's form.", ["contacts"], ["glasses"])
Q("u075", "update", ["What's a good stretch for a stiff neck?", "Who's our health insurer? I want to claim the physio receipts."], ["health_insurance"], ["vhi"])
Q("u076", "update", "Am I still seeing Orla?", ["counselling_done"], ["counselling"])
Q("u077", "update", ["Name some Irish composers.", "Women especially.", "Order my usual coffee for me."], ["coffee"], ["americano"])
Q("u078", "update", "Should I bring a bottle of wine for myself to Peg's?", ["not_drinking"], ["wine"])
Q("u079", "update", "Ruairi wants to book somewhere for our anniversary - where would I like?", ["special_occasion", "anniversary"], ["fav_restaurant"])
Q("u080", "update", ["How do I descale a kettle?", "Where do we do the big weekly shop now?"], ["weekly_shop"], ["shop_galway"])
Q("u081", "update", "Who has a spare key to our place?", ["spare_key"], ["spare_key_galway"])
Q("u082", "update", ["What rhymes with 'Christmas'?", "Where do I keep my passwords?"], ["password_manager"], ["passwords_notebook"])
Q("u083", "update", ["What was the name of that Cillian Murphy film about the Magdalene laundries?", "Where can I stream it - which services are we paying for?"], ["streaming"], ["netflix_old"])
Q("u084", "update", ["What's the best way to dry a wet greyhound?", "What food is the dog on now?"], ["pepper_food_change"], ["pepper_food"])
Q("u085", "update", "I'm sick for tomorrow - who do I tell, and how?", ["sick_day_process"], ["sick_galway"])
Q("u086", "update", ["Suggest a quick breakfast.", "What time do we all need to be up and out in the morning?"], ["morning_routine"], ["morning_galway"])
Q("u087", "update", ["Give me three ideas for a beginner fiddle video.", "Short ones.", "What's my YouTube channel called now?"], ["channel_rename"], ["youtube_channel"])
Q("u088", "update", ["How many bars in a 32-bar form? Trick question, I know.", "What's the title of the new piece I'm writing for the choir?"], ["choral_piece_title"], ["choral_piece"])
Q("u089", "update", "What phone do I have? I'm buying a case.", ["new_phone"], ["phone_handset"])
Q("u090", "update", ["Can you check my French: 'Je suis allee au marche'?", "When's my eye test?"], ["eye_test_booked"], ["optician"])
Q("u091", "update", "When am I seeing the physio next?", ["physio_moved"], ["physio_booking"])
Q("u092", "update", ["What's the best trad album of the seventies?", "When is the next leisure centre membership payment due?"], ["sea_swims"], ["gym"])
Q("u093", "update", "Which phone network am I on?", ["new_mobile"], ["phone_number"])
Q("u094", "update", ["What's a good soup for a cold day?", "Which club is Cian in now? I'm paying his sub."], ["cian_rowing"], ["cian/hurling"])
Q("u095", "update", "What's the name of Cian's school now, and what year is he in?", ["cian_secondary"], ["cian/school"])

Q("d016", "drift", ["What's the best way to store fresh ginger?", "Can I freeze it?", "What's the physio called and what does he charge?"], ["physio"])
Q("d017", "drift", ["What's a good opening line for a speech at a retirement do?", "Make it shorter.", "Who's the deputy principal again?"], ["principal"])
Q("d018", "drift", ["Help me word a complaint to the council about potholes.", "Less angry.", "When are the Leaving Cert music practicals?"], ["lc_practicals"])
Q("d019", "drift", ["Suggest names for a goldfish.", "Saoirse wants something musical.", "When are the Annie shows?"], ["musical_switch"])
Q("d020", "drift", ["How do I get red wine out of a carpet?", "It's dried in.", "What day does Niamh Barrett have her extra lesson?"], ["star_pupil"])
Q("d021", "drift", ["Explain what a modal cadence is.", "Give me an example from a film score.", "When does school break up for Christmas?"], ["school_calendar"])
Q("d022", "drift", ["Is it 'practice' or 'practise' as a verb?", "In Irish English?", "Where do I park if the staff car park is full?"], ["school_parking"])
Q("d023", "drift", ["What are signs of a good violin bow?", "What about a cheap one for a child?", "What's Cian getting done with his teeth in January, and how much is it?"], ["cian_braces"])
Q("d024", "drift", ["Recipe for vegan mince pies?", "No almonds please.", "When does Clodagh land?"], ["clodagh_visit"])
Q("d025", "drift", ["What's the weather usually like in Porto in July?", "Will we need jumpers?", "When's Ruairi's birthday?"], ["ruairi_birthday"])
Q("d026", "drift", ["Which is better for beginners, ukulele or guitar?", "For a 9-year-old.", "What did I say I wanted for my 40th?"], ["my_40th"])
Q("d027", "drift", ["What stops a door squeaking?", "WD-40 or something else?", "How much have we saved for the trip so far?"], ["porto_savings"])
Q("d028", "drift", ["What's the word for a group of crows?", "And owls?", "What time is our flight out to Porto?"], ["porto_flights"])
Q("d029", "drift", ["Give me a warm-up game for 1st years.", "Without instruments.", "When does the library book club meet?"], ["bookclub"])
Q("d030", "drift", ["What's the best sea swimming watch?", "Under 200 euro.", "When did I get my flu jab?"], ["flu_vaccine"])
Q("d031", "drift", ["How do I clean a cast-iron pan?", "Without soap?", "How much is the dog's insurance a month?"], ["pet_insurance"])
Q("d032", "drift", ["What's a good podcast about history?", "For a teenager.", "Whose mum does the rowing lifts with me?"], ["cian_friend"])
Q("d033", "drift", ["What's a good present for a 9-year-old girl?", "Under 30 euro.", "And what was I thinking of getting Ruairi?"], ["gift_ruairi"])
Q("d034", "drift", ["Give me a quick staffroom quiz question.", "About music.", "Who did I get for Kris Kindle, and what's the limit?"], ["kris_kindle"])
Q("d035", "drift", ["How do I get a teenager to read more?", "He likes history.", "What was the quote we got for solar panels?"], ["solar_quote"])
Q("d036", "drift", ["What's a good stretch for tight calves?", "After swimming.", "What's left on my house to-do list?"], ["house_todo"])

Q("m011", "multi", "Ruairi wants to know what the kids are like and what they'd want for Christmas.", ["cian_personality", "saoirse_personality", "gift_ideas"])
Q("m012", "multi", "Will the UCC lectures clash with anything I do every week?", ["ma_ucc", "harbour_voices"])
Q("m013", "multi", "What's happening for me in the week of the Christmas concert - school and choir?", ["harbour_voices_concert", "school_calendar"])
Q("m014", "multi", "I'm visiting Mam next month - remind me where she is, how to reach her and what to watch with her health.", ["mam_moved", "mam_mobile", "mam_health"])
Q("m015", "multi", "Write a note for Marian in case she has to look after the dog: walks, food and where the key is.", ["pepper_walks", "pepper_food_change", "spare_key"])
Q("m016", "multi", "What appointments have I got in January, mine and the kids'?", ["smear", "grange_rang", "cian_braces"])
Q("m017", "multi", "Can I book the kids in at the same dentist as me?", ["kids_dentist", "teeth/new_dentist"])
Q("m018", "multi", "What are the kids costing us each month - childcare, grinds and pocket money?", ["acorns_fee_2026", "cian_grinds", "allowance"])
Q("m019", "multi", "Plan a night out for Ruairi and me that suits how we both eat and drink.", ["plant_based", "not_drinking", "ruairi_food", "special_occasion"])
Q("m020", "multi", "A couple wants a wedding quote - what's our rate and are my instruments covered if something happens at the venue?", ["wedding_rate", "instrument_insurance"])
Q("m021", "multi", "Is Saoirse's passport ok for the summer trip? When exactly do we travel?", ["passport", "porto_flights"])
Q("m022", "multi", "What does a typical Thursday look like now for me and the kids?", ["saoirse_gymnastics", "cian_grinds", "session_cork", "timetable_2026_27"])
Q("m023", "multi", "Sorting the car admin: when's the NCT, the next service and the insurance renewal?", ["nct", "car_service", "car_cover"])
Q("m024", "multi", "Niamh Barrett wants a plan for the spring: what's she going for and when are her practicals?", ["star_pupil", "lc_practicals"])
Q("m025", "multi", "Draft a message to Declan about Christmas and which weekends he has the kids in January.", ["christmas_plan", "custody_2026"])
Q("m026", "multi", "Give me a rundown of household money: what I earn and what we agreed to spend.", ["pay_2026", "budget_2026"])
Q("m027", "multi", "What's going on with my own music outside school - the record, the channel and the choir?", ["ep_release", "channel_rename", "harbour_voices_concert"])
Q("m028", "multi", "What does my Sunday usually look like, morning to night?", ["sea_swims", "sunday_routine", "channel_rename"])
Q("m029", "multi", "Who can I call on in Cork if something happens with the kids and I'm stuck?", ["ruairi_movein", "neighbour", "friends_cork"])
Q("m030", "multi", "Give the new choir pianist the key info: when and where we rehearse, and the concert date.", ["harbour_voices", "harbour_voices_concert"])
Q("m031", "multi", "Summarise my load at school this year: tutor group, orchestra and the musical.", ["tutor_5c", "timetable_2026_27", "musical_switch"])
Q("m032", "multi", "What can I cook for dinner that works for me and the kids?", ["kids_diet", "cian_allergy", "plant_based"])
Q("m033", "multi", "Plan the February midterm: dates, who's driving, and who can mind the dog.", ["kerry_midterm", "neighbour"])
Q("m034", "multi", "I'm registering with UCC: which email, phone number and address should I give?", ["personal_email", "new_mobile", "house_purchase"])
Q("m035", "multi", "In what ways is Ruairi officially down on my stuff now - car, emergencies?", ["car_cover", "ice_contact"])

Q("p010", "paraphrase", "Should the barista use the cow stuff in mine?", ["coffee", "plant_based"])
Q("p011", "paraphrase", "How many candles will be on my cake next spring?", ["me/basics", "birthday"])
Q("p012", "paraphrase", "Should I leave the landing light on for my youngest tonight?", ["saoirse_personality"])
Q("p013", "paraphrase", "Which of my pupils is chasing the conservatoire money?", ["star_pupil"])
Q("p014", "paraphrase", "Will my eldest die of shame if I pop into his classroom?", ["cian_secondary", "cian_personality"])
Q("p015", "paraphrase", "What leaves my account for the house early each month, and how much?", ["mortgage"])
Q("p016", "paraphrase", "Can I let our hound off the lead near the neighbours' Jack Russells?", ["pepper_walks"])
Q("p017", "paraphrase", "If I go back to college, which night of the week do I lose?", ["ma_ucc", "harbour_voices"])
Q("p018", "paraphrase", "Will my fella mind a big handful of fresh herbs in the Thai curry?", ["ruairi_food"])
Q("p019", "paraphrase", "Should I pack something to keep me warm in bed for the Dingle cottage?", ["always_cold", "kerry_midterm"])
Q("p020", "paraphrase", "Would a pint on my birthday night be out of character these days?", ["not_drinking"])
Q("p021", "paraphrase", "Who do I ring when the dog's stomach is off again, and what's she meant to be eating?", ["vet", "pepper_food_change"])
Q("p022", "paraphrase", "Who in my life works with timber for a living?", ["ruairi", "ruairi_work"])
Q("p023", "paraphrase", "Mam's sugar levels - anything I should watch when I cook for her?", ["mam_health"])
Q("p024", "paraphrase", "Where can people watch me play online?", ["channel_rename"])
Q("p025", "paraphrase", "Do I need my specs to drive to work tomorrow?", ["contacts"])
Q("p026", "paraphrase", "Do I have to be home when the landlord calls round on Monday?", ["house_purchase"])
Q("p027", "paraphrase", "What do I grab if I get wheezy on the pier before a swim?", ["asthma"])

Q("u096", "update", ["What's a good first piece for a Grade 1 cellist?", "The staff parking permit is due - which car do I put on it?"], ["skoda", "parking_permit_school"], ["car"])
Q("u097", "update", "Is Biscuit due his booster soon?", ["biscuit_died", "vet"], ["dog_biscuit"])
Q("u098", "update", "Running late for first class tomorrow - who at school do I let know?", ["sick_day_process", "principal"], ["sick_galway"])
Q("u099", "update", ["What's a catchy name for a charity swim?", "Who do I put as next of kin on the swim waiver?"], ["ice_contact"], ["emergency_contact"])
Q("u100", "update", "Which hairdresser should I book before the Christmas concert?", ["haircut"], ["hair"])

Q("d037", "drift", ["How long do I bake sweet potatoes?", "At 200 degrees?", "When's Cian's birthday again?"], ["cian_birthday"])
Q("d038", "drift", ["What's a good name for a WhatsApp group for parents?", "Something less cringe.", "What kind of party does Saoirse want for her birthday?"], ["saoirse_birthday"])
Q("d039", "drift", ["What's the capital of Iceland?", "How do you pronounce it?", "What's the name of the boat Ruairi is doing up?"], ["ruairi_boat"])
Q("d040", "drift", ["How do I remove a stripped screw?", "No drill.", "When do Sile and I usually talk?"], ["best_friend"])
Q("d041", "drift", ["Give me a rhyme scheme for a sea shanty.", "AABB is boring.", "Which toll tag is on the car?"], ["toll_tag"])

Q("m036", "multi", "Saoirse wants a sleepover - which friend will it be, and anything I should remember for her at night?", ["saoirse_friend", "saoirse_personality"])
Q("m037", "multi", "We're invited to Ruairi's parents - how often do we go, and what does Peg need to know about what I eat?", ["ruairi_family", "plant_based"])
Q("m038", "multi", "Thinking of a weekend away for my birthday: when is it, what kind of trip suits me, and what did I say about the 40th?", ["birthday", "holiday_style", "my_40th"])
Q("m039", "multi", "I'm heading up to Galway on a Saturday - when do I normally go, and who else can I see while I'm there?", ["galway_visits", "best_friend"])
Q("m040", "multi", "What's the long-term plan for a new car, and when does the current one need its NCT?", ["ev_plan", "nct"])

Q("p028", "paraphrase", "Where do my partner's mum and dad live, and how often do we see them?", ["ruairi_family"])
Q("p029", "paraphrase", "Where's my treat spot for a bite in town at the weekend?", ["saturday_lunch"])
Q("p030", "paraphrase", "Which of the kids still needs the extra seat in the back?", ["booster_seat"])
Q("p031", "paraphrase", "What does my daughter need to see her homework properly?", ["saoirse_glasses"])
Q("p032", "paraphrase", "Where did the old family dog end up after the vet's?", ["biscuit_died"])

# === MORE QUESTIONS ===

# ---------------------------------------------------------------------------
# DISTRACTORS: realistic filler from the same life, combined from small lists
# ---------------------------------------------------------------------------
import datetime as _dt
NOW = _dt.date(2026, 12, 2)
TARGET_ENTRIES = 700


def _date(days):
    return NOW - _dt.timedelta(days=int(days))


def make_distractors(n_needed, taken):
    rng = random.Random(20261202)
    out = []

    def add(key, value, days, typ, desc=None):
        if key in taken or len(out) >= n_needed:
            return False
        taken.add(key)
        out.append({"key": key, "value": value, "days_ago": float(days),
                    "type": typ, "description": desc})
        return True

    stations = ["Circle K Douglas", "Applegreen Bandon Road", "Maxol Ballinlough", "Top Oil Carrigaline"]
    g_stations = ["Circle K Headford Road", "Applegreen Oranmore", "Maxol Salthill"]
    shops = ["Tesco Douglas", "Lidl Ballinlough", "Aldi Carrigaline", "SuperValu Blackrock", "the English Market"]
    g_shops = ["Tesco Salthill", "Dunnes Terryland", "Aldi Headford Road"]
    buys = [("sheet music", "Waltons", "Grade 5 piano pieces, two copies", 2, 450), ("rosin", "Cork School of Music shop", "Pirastro Goldflex cake", 2, 900),
            ("violin strings", "Waltons", "Dominant set for Saoirse's half-size", 2, 350), ("school shoes", "Clarks Mahon Point", "for Cian, size 8", 2, 450),
            ("dog bed", "Petstop", "orthopaedic, large", 2, 245), ("muzzle", "Petmania", "basket muzzle for Pepper's walks", 2, 245),
            ("wetsuit gloves", "Great Outdoors", "3mm neoprene", 2, 50), ("dryrobe", "Amazon", "second hand, navy", 2, 50),
            ("metronome", "Musicmaker", "Wittner clockwork", 2, 900), ("music stands", "Waltons", "six folding stands for the choir", 2, 290),
            ("headphones", "Harvey Norman", "for the practice room", 2, 440), ("lunch boxes", "Dealz", "for both kids", 2, 900),
            ("oat milk", "SuperValu", "a case of Oatly barista", 2, 320), ("bike lights", "Cycle Republic", "USB rechargeable", 2, 34),
            ("paint", "Woodies", "two tins of Farrow-style grey for the hall", 2, 30), ("curtain poles", "IKEA", "for Saoirse's room", 2, 30),
            ("printer ink", "Officeworks", "HP 305 black", 2, 900), ("hurley grip", "Elverys", "for Cian's hurley", 210, 900),
            ("rowing socks", "Shandon club shop", "club colours", 2, 195), ("piano stool", "DoneDeal", "adjustable, €40", 2, 900)]
    students = ["Ella", "Jack", "Aoibhinn", "Conor", "Mia", "Tadhg", "Sophie", "Oisin", "Grace", "Fionn", "Chloe", "Darragh",
                "Leah", "Rory", "Ciara", "Liam", "Eabha", "Sean", "Niamh", "Cormac"]
    surnames = ["Murphy", "O'Sullivan", "Walsh", "Kelly", "Byrne", "Ryan", "O'Brien", "Lynch", "Murray", "Quinn",
                "Doyle", "Nolan", "Kennedy", "Barry", "Cotter", "Twomey"]
    years = ["1st year", "2nd year", "3rd year", "TY", "5th year", "6th year"]
    instruments = ["piano", "guitar", "tin whistle", "voice", "flute", "drums", "violin", "concertina"]
    work_on = ["sight-reading", "the composing question", "set works (Queen, Bach)", "a solo for the practical",
               "keeping time in ensemble", "aural skills", "the Irish music essay", "scales in thirds"]
    pieces = ["Bach Prelude in C minor", "Chopin Nocturne op. 9 no. 2", "The Kesh jig", "Satie Gymnopedie 1",
              "Pachelbel Canon (orchestra part)", "Lark in the Clear Air", "scales and arpeggios", "Carolan's Concerto",
              "Debussy Clair de Lune", "The Silver Spear reel", "choir arrangement of 'Siuil a Ruin'"]
    dishes = ["chickpea curry", "lentil shepherd's pie", "tofu scramble", "mushroom stroganoff", "black bean tacos",
              "vegan coddle", "miso ramen", "seitan stew", "oat flapjacks", "cashew-free pesto pasta", "dal makhani",
              "beetroot burgers"]
    sources = ["BOSH!", "a Rachel Ama video", "the Guardian", "Deliciously Ella", "Ruairi's mam", "a school colleague"]
    verdicts = ["kids ate it", "Cian refused", "make again", "too salty", "Saoirse loved it", "fine, not worth the effort"]
    relatives = [("aunt_maura", "Aunt Maura", "Moycullen"), ("uncle_pat", "Uncle Pat", "Clifden"), ("cousin_deirdre", "cousin Deirdre", "Tuam"),
                 ("godson_eoin", "my godson Eoin", "Ennis"), ("clodagh_kids", "Clodagh's twins", "Boston"), ("gran_hynes", "Declan's mother Nora", "Barna"),
                 ("peg_walsh", "Ruairi's mam Peg", "Crosshaven"), ("tom_walsh", "Ruairi's dad Tom", "Crosshaven"),
                 ("niece_ava", "my niece Ava", "Boston"), ("cousin_fergal", "cousin Fergal", "Limerick")]
    months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
    other_appts = [("appt/cian_orthodontist", "Cian's orthodontist review, Dr. Harte, Wilton", "event"),
                   ("appt/pepper_nails", "Pepper's nail clip at Maryborough Vets (nurse only)", "event"),
                   ("appt/saoirse_eye_test", "Saoirse's eye test at Specsavers Douglas", "event"),
                   ("appt/boiler_service", "Boiler service, Flogas engineer, 8-12 window", "event"),
                   ("appt/chimney_sweep", "Chimney sweep booked for the living room stove", "event"),
                   ("appt/cian_booster", "Cian's school vaccine catch-up with the HSE team", "event"),
                   ("appt/ruairi_dentist", "Ruairi's dentist in Carrigaline (not mine)", "event"),
                   ("appt/window_cleaner", "Window cleaner coming for the front and back", "event"),
                   ("appt/solicitor", "Solicitor meeting re: house closing documents", "event"),
                   ("appt/bank_advisor", "AIB advisor call about overpaying the mortgage", "event"),
                   ("appt/piano_exam", "RIAM exam centre booking for three students", "event"),
                   ("appt/school_photos", "School photographer for Saoirse's class", "event"),
                   ("appt/saoirse_hearing", "Saoirse hearing test follow-up, Cork University Hospital", "event")]
    school_tasks = ["Ordered 30 copies of the Christmas carol booklet", "Booked the bus for the Cork Choral Festival",
                    "Collected money for the orchestra hoodies", "Submitted junior cycle CBA marks",
                    "Fixed the broken keyboard stand in Room 14", "Asked for a budget for new djembes",
                    "Emailed parents about the musical auditions", "Covered a maths class for Fiona",
                    "Staff meeting about the new phone ban", "Met the SNA about a 1st year in the choir",
                    "Returned the borrowed PA to the GAA club", "Logged the broken music room window with the caretaker"]
    swim_spots = ["Myrtleville", "Fountainstown", "Sandycove", "Church Bay"]
    small_events = [("Pepper got her paw caught in the gate, fine after", 2, 245), ("Saoirse lost a front tooth", 300, 1000), ("Cian's bike puncture on the way home", 2, 1000),
                    ("Power cut for two hours on the road", 2, 1000), ("Washing machine leaked again", 35, 1000), ("Ruairi fixed the shed door", 2, 30),
                    ("Mam came down on the train for the weekend", 2, 190), ("Found a leak under the kitchen sink", 2, 30), ("Choir WhatsApp argument about robes", 2, 300),
                    ("Neighbour's alarm going off all night", 2, 1000), ("Saoirse's class assembly - she was a narrator", 2, 1000), ("Cian got a merit for his history project", 2, 450),
                    ("Kev sent rough mixes of two tracks", 2, 195), ("School closed early for storm warning", 2, 1000), ("Ran out of oat milk again", 2, 320),
                    ("Parking ticket in Patrick Street (paid)", 2, 460), ("Pepper stole a loaf off the counter", 2, 245), ("Declan called about the Christmas arrangements", 2, 700)]

    rounds = 0
    while len(out) < n_needed and rounds < 20000:
        rounds += 1
        kind = rng.randrange(11)
        d = rng.randint(2, 1000)
        dt = _date(d)
        ds = dt.isoformat()
        if kind == 0:
            if d > 470:
                v = "Filled the Yaris at %s: %.1f L, EUR %.2f" % (rng.choice(g_stations), rng.uniform(25, 38), rng.uniform(45, 70))
            else:
                v = "Filled the Octavia at %s: %.1f L, EUR %.2f" % (rng.choice(stations), rng.uniform(35, 52), rng.uniform(60, 95))
            add("fuel/" + ds, v, d, "event", None)
        elif kind == 1:
            item, shop, det, lo, hi = rng.choice(buys)
            d = rng.randint(lo, hi)
            dt = _date(d)
            if d > 470:
                if shop not in ("Amazon", "DoneDeal"):
                    shop = "Powell's music shop, Galway" if item in ("rosin", "metronome") else "Dunnes Terryland"
            add("purchase_%s_%s" % (item.replace(" ", "_"), dt.strftime("%y%m")), "Bought %s at %s - %s, EUR %d" % (item, shop, det, rng.randint(4, 160)), d, "event",
                rng.choice([None, "purchase", "shopping"]))
        elif kind == 2:
            wk = dt.isocalendar()
            add("practice/%d-w%02d" % (wk[0], wk[1]), "Practice %d min: %s; %s" % (rng.choice([20, 30, 40, 45, 60]), rng.choice(pieces), rng.choice(pieces)), d, "note",
                rng.choice([None, "practice log"]))
        elif kind == 3:
            nm = rng.choice(students); sn = rng.choice(surnames)
            add("student/%s_%s" % (nm.lower(), sn.lower().replace("'", "")), "%s %s, %s, %s - working on %s" % (nm, sn, rng.choice(years), rng.choice(instruments), rng.choice(work_on)),
                rng.randint(2, 440), "note", rng.choice([None, "student note", "pupil"]))
        elif kind == 4:
            k, who, where = rng.choice(relatives)
            add("bday/" + k, "%s's birthday is %d %s (lives in %s)" % (who, rng.randint(1, 28), rng.choice(months), where), d, "fact",
                rng.choice([None, "birthday"]))
        elif kind == 5:
            k, what, typ = rng.choice(other_appts)
            fut = NOW + _dt.timedelta(days=rng.randint(3, 27))
            add("%s_%s" % (k, fut.strftime("%b%d").lower()), "%s on %s at %d:%02d" % (what, fut.strftime("%A %d %B"), rng.randint(9, 17), rng.choice([0, 15, 30, 45])),
                rng.randint(1, 40), typ, rng.choice([None, "appointment", "someone else's appointment"]))
        elif kind == 6:
            dish = rng.choice(dishes)
            add("recipe/%s" % dish.replace(" ", "_").replace("'", ""), "Tried %s from %s - %s" % (dish, rng.choice(sources), rng.choice(verdicts)), rng.randint(5, 330), "note",
                rng.choice([None, "recipe tried"]))
        elif kind == 7:
            d = rng.randint(2, 440)
            add("school_log_" + _date(d).isoformat().replace("-", ""), rng.choice(school_tasks), d, "event", rng.choice([None, "school admin"]))
        elif kind == 8:
            spot = rng.choice(swim_spots)
            dd = rng.randint(2, 55)
            add("swim/" + _date(dd).isoformat(), "%s, water %.1fC, %d minutes, %s" % (spot, rng.uniform(9, 14), rng.randint(5, 20), rng.choice(["calm", "choppy", "jellyfish", "lovely"])), dd, "event", None)
        elif kind == 9:
            text, lo, hi = rng.choice(small_events)
            d = rng.randint(lo, hi)
            add("log " + _date(d).isoformat(), text, d, "event", rng.choice([None, "diary"]))
        else:
            shop = rng.choice(g_shops if d > 470 else shops)
            add("groceries/" + ds, "Weekly shop at %s, EUR %.2f" % (shop, rng.uniform(60, 190)), d, "event", rng.choice([None, "groceries"]))
    return out


# ---------------------------------------------------------------------------
# VALIDATION + OUTPUT
# ---------------------------------------------------------------------------
MIN_KIND = {"update": 80, "drift": 30, "multi": 30, "paraphrase": 20}
MIN_QUESTIONS = 160
MIN_MEANINGFUL = 240


def words(e):
    text = " ".join([e["key"], e["value"], e["description"] or ""]).lower()
    return set(re.findall(r"[a-z0-9\u00c0-\u024f]+", text))


def jaccard(a, b):
    return len(a & b) / float(len(a | b)) if (a | b) else 0.0


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    errors = []
    meaningful = list(ENTRIES)
    taken = set()
    for e in meaningful:
        if e["key"] in taken:
            errors.append("duplicate meaningful key: %s" % e["key"])
        taken.add(e["key"])
    distractors = make_distractors(TARGET_ENTRIES - len(meaningful), set(taken))
    entries = meaningful + distractors
    by_key = {}
    for e in entries:
        if e["key"] in by_key:
            errors.append("duplicate key: %s" % e["key"])
        by_key[e["key"]] = e
        if e["type"] not in ("fact", "preference", "event", "decision", "note"):
            errors.append("bad type %s" % e["key"])
        if e["description"] is not None and not e["description"].strip():
            errors.append("empty description %s" % e["key"])
        if e["days_ago"] < 0 or not e["value"].strip():
            errors.append("bad entry %s" % e["key"])
    ids = set()
    counts = {}
    upd_multi_turn = 0
    jac = []
    used = set()
    for q in QUESTIONS:
        k = q["kind"]
        counts[k] = counts.get(k, 0) + 1
        if q["id"] in ids:
            errors.append("duplicate question id %s" % q["id"])
        ids.add(q["id"])
        if k not in MIN_KIND:
            errors.append("bad kind %s" % q["id"])
        if not q["turns"] or not q["answers"]:
            errors.append("empty turns/answers %s" % q["id"])
        if len(set(q["answers"])) != len(q["answers"]) or set(q["answers"]) & set(q["stale"]):
            errors.append("answers/stale overlap or repeat %s" % q["id"])
        for key in q["answers"] + q["stale"]:
            if key not in by_key:
                errors.append("%s: unknown key %s" % (q["id"], key))
            elif key not in taken:
                errors.append("%s: key %s is a distractor" % (q["id"], key))
            used.add(key)
        if k == "update":
            if not q["stale"]:
                errors.append("update without stale %s" % q["id"])
            if len(q["turns"]) > 1:
                upd_multi_turn += 1
                if len(q["turns"]) > 4:
                    errors.append("too many turns %s" % q["id"])
            new = by_key.get(q["answers"][0])
            for s in q["stale"]:
                old = by_key.get(s)
                if old and new:
                    if old["days_ago"] <= new["days_ago"]:
                        errors.append("%s: stale %s not older than %s" % (q["id"], s, new["key"]))
                    jac.append(jaccard(words(old), words(new)))
        else:
            if q["stale"]:
                errors.append("stale outside update %s" % q["id"])
        if k == "drift" and not (3 <= len(q["turns"]) <= 4 and 1 <= len(q["answers"]) <= 2):
            errors.append("drift shape %s" % q["id"])
        if k == "multi" and not (2 <= len(q["answers"]) <= 4):
            errors.append("multi needs 2-4 answers %s" % q["id"])
    for k, m in MIN_KIND.items():
        if counts.get(k, 0) < m:
            errors.append("need >= %d %s questions, have %d" % (m, k, counts.get(k, 0)))
    if len(QUESTIONS) < MIN_QUESTIONS:
        errors.append("need >= %d questions, have %d" % (MIN_QUESTIONS, len(QUESTIONS)))
    if len(meaningful) < MIN_MEANINGFUL:
        errors.append("need >= %d meaningful entries, have %d" % (MIN_MEANINGFUL, len(meaningful)))
    if not (650 <= len(entries) <= 750):
        errors.append("entry count %d outside 650-750" % len(entries))
    nu = counts.get("update", 0)
    if nu and not (0.4 <= upd_multi_turn / float(nu) <= 0.6):
        errors.append("update multi-turn share %d/%d not about half" % (upd_multi_turn, nu))
    dshare = sum(1 for e in entries if e["description"]) / float(len(entries))
    if not (0.35 <= dshare <= 0.65):
        errors.append("description share %.2f not about half" % dshare)
    if errors:
        for e in errors:
            print("ERROR:", e, file=sys.stderr)
        sys.exit(1)

    data = {"entries": entries, "questions": QUESTIONS}
    with open(os.path.join(here, "set.json"), "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, indent=1)
    mean_j = sum(jac) / len(jac) if jac else 0.0
    kinds = sorted(counts)
    lines = [
        "# Memory-selector dev set: relevance4 (persona: Aoife Brennan)",
        "",
        "## Persona",
        "Aoife Brennan, 39, a secondary-school music teacher in Ireland. Three years ago she rented a flat in",
        "Salthill, Galway, taught at St. Enda's College, lived with her partner Declan (a sound engineer and the",
        "father of her children Cian and Saoirse), drove a silver Yaris, had an old beagle called Biscuit, ran the",
        "Salthill Singers choir and was recording an EP called 'Tidewater'. Since then: she separated from Declan",
        "(shared custody; he later moved to Limerick), moved to Cork (rented in Douglas, then bought a house in",
        "Blackrock), became head of music at Douglas Community School, the kids changed schools, sports and",
        "childcare, she changed GP, dentist, health insurer, union, bank, phone number and handset, energy supplier,",
        "broadband and bin company, screen-time and pocket-money rules,",
        "sold the Yaris and bought a Skoda Octavia estate, Biscuit died and a rescue greyhound (Pepper) arrived,",
        "her diet went keto -> pescatarian -> vegan, exercise went running -> gym -> sea swimming, she started a new",
        "choir (Harbour Voices), the EP became 'Low Light', she met Ruairi (a boatbuilder who is moving in), school",
        "IT moved to a passphrase + authenticator policy, budgets were redone, favourite restaurants changed,",
        "appointments were moved and an Easter trip to Lisbon was cancelled and rebooked as Porto in June.",
        "Reference date for days_ago: %s." % NOW.isoformat(),
        "",
        "## Format",
        "`set.json` = `{\"entries\": [...], \"questions\": [...]}`.",
        "- entry: `key`, `value`, `days_ago` (float), `type` (fact|preference|event|decision|note), `description` (str or null).",
        "- question: `id`, `kind`, `turns` (user messages only, oldest first; last one is the question), `answers`",
        "  (ALL keys needed to answer the last turn; for updates the newest version comes first), `stale`",
        "  (kind `update` only: older versions of the same fact that are still stored; a good selector shows them",
        "  after the newer entry or not at all).",
        "",
        "Kinds: `update` = asks about the current state of something that changed (about half after 1-3",
        "unrelated earlier turns); `drift` = 2-3 unrelated earlier turns then a question needing 1-2 entries;",
        "`multi` = needs 2-4 entries on different facets; `paraphrase` = needs an inference step and shares few",
        "words with the entry.",
        "",
        "## Counts",
        "- entries: %d (%d hand-written meaningful, %d distractors generated deterministically from small hand-written lists)" % (len(entries), len(meaningful), len(distractors)),
        "- entries with a description: %d (%.0f%%)" % (sum(1 for e in entries if e["description"]), 100 * dshare),
        "- questions: %d" % len(QUESTIONS),
    ]
    for k in kinds:
        extra = ""
        if k == "update":
            extra = " (%d multi-turn, %d single-turn)" % (upd_multi_turn, nu - upd_multi_turn)
        lines.append("  - %s: %d%s" % (k, counts[k], extra))
    lines += [
        "- distinct meaningful keys used as answers or stale: %d" % len(used),
        "- stale (old version, newer replacement) pairs: %d; update questions with two stale versions: %d" % (len(jac), sum(1 for q in QUESTIONS if len(q['stale']) >= 2)),
        "- mean word-Jaccard between each stale entry and its newer replacement (first answer key), over",
        "  lower-cased word sets of key + value + description: %.3f" % mean_j,
        "",
        "## Provenance",
        "Written by hand from a task description, without seeing the selector's code or any other evaluation set.",
        "The persona, every meaningful entry and every question were written individually; only the distractor",
        "entries are combined by `build.py` from small hand-written lists with a fixed random seed.",
        "Regenerate with `python3 build.py` (standard library only; exits non-zero if validation fails).",
        "",
    ]
    with open(os.path.join(here, "README.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    print("ok: %d entries, %d questions %s, mean stale Jaccard %.3f" % (len(entries), len(QUESTIONS), counts, mean_j))


if __name__ == "__main__":
    main()
