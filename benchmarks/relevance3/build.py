#!/usr/bin/env python3
"""Deterministic generator for the relevance3 development set (memory selector eval).

Persona: Dennis "Den" Whitcombe, retired railway signalling engineer in York, UK.
Run: python3 build.py  -> writes set.json and README.md next to this file, validates, exits non-zero on problems.
Standard library only. Written by hand from the task description only.
"""
import json, os, random, re, sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
ENTRIES = []
QUESTIONS = []
PROBLEMS = []

def e(key, value, days, typ, desc=None):
    ENTRIES.append({"key": key, "value": value, "days_ago": float(days), "type": typ, "description": desc})

def q(qid, kind, turns, answers, stale=None):
    if isinstance(turns, str):
        turns = [turns]
    QUESTIONS.append({"id": qid, "kind": kind, "turns": list(turns), "answers": list(answers), "stale": list(stale or [])})

# ---------------------------------------------------------------- core (meaningful) entries
e("profile/name", "Dennis Whitcombe; family and old colleagues call him Den", 1500, "fact", "user's name")
e("profile/birthday", "Born 14 March 1957 in Darlington, County Durham", 1500, "fact", "user's date of birth")
e("career/railway", "Worked 38 years for British Rail and then Network Rail as a signalling engineer, mostly on the East Coast Main Line around York and Doncaster. Retired in 2019 as a senior signalling design engineer.", 1480, "fact", "user's former career")
e("career/retirement_gift", "Colleagues gave him a restored GNER lamp and a framed diagram of York IECC when he retired", 1470, "note")
e("family/wife", "Wife Ruth, retired primary school teacher (taught Year 2 at Clifton Green for 25 years). Married since 1982.", 1500, "fact", "user's spouse")
e("family/wife_birthday", "Ruth's birthday is 2 September", 1400, "fact")
e("wedding_anniversary", "Wedding anniversary 17 July - married 1982 at St Olave's church, York", 1400, "fact")
e("family/daughter", "Daughter Claire, physiotherapist, lives in Leeds (Moortown) with husband Amir Haddad and their two kids", 1300, "fact", "user's daughter")
e("family/son_in_law", "Amir, Claire's husband, is an A&E registrar at St James's in Leeds; works a lot of nights", 1000, "fact")
e("family/son", "Son Owen, software tester; partner Jess (Jessica Pryce), a speech therapist", 1300, "fact", "user's son")
e("grandkids/maya", "Granddaughter Maya, Claire's eldest, born 23 November 2014. Horse-mad, has riding lessons at Eccup.", 1100, "fact", "eldest grandchild")
e("grandkids/theo", "Grandson Theo, Claire's youngest, born 8 June 2019", 1100, "fact", "younger grandson")
e("grandkids/iris", "Owen and Jess's daughter Iris was born 4 February 2025, 7lb 2oz", 660, "event", "youngest grandchild")
e("theo_peanut_allergy", "Theo has a severe peanut allergy. He carries an EpiPen; Claire keeps a spare in the blue zip bag in his school rucksack. Check labels for 'may contain nuts'.", 700, "fact", "grandson's allergy")
e("maya_swimming", "Maya has swimming club Thursday 5pm at the John Charles Centre; needs goggles and a £2 coin for the locker", 300, "fact")
e("iris_milk", "Iris is on formula (Kendamil) plus solids; Jess asks for no honey and no cow's milk drinks yet", 250, "note")
e("health/afib", "Diagnosed with atrial fibrillation in 2021 after palpitations on the Dalesway walk", 1800, "fact", "heart condition")
e("health/allergy_penicillin", "Allergic to penicillin: rash and facial swelling in 1998. Must tell any doctor or dentist.", 1600, "fact", "drug allergy")
e("diet/shellfish", "Can't eat shellfish - prawns and mussels make him violently ill (last time Whitby 2019). Fish is fine.", 1300, "preference", "food intolerance")
e("diet/grapefruit", "Told by the pharmacist to avoid grapefruit and grapefruit juice because of his statin", 800, "note")
e("health/knee", "Left knee osteoarthritis, bone on bone according to the X-ray; stairs and long descents are painful", 420, "fact", "knee problem")
e("health/statin", "Takes atorvastatin 20mg at night for cholesterol", 800, "fact")
e("health/hba1c_2025", "HbA1c 44 mmol/mol - classed as prediabetic; told to cut sugar and lose weight", 400, "fact")
e("health/hearing", "Wears a hearing aid in the right ear; uses size 312 batteries (brown tab)", 650, "fact", "hearing aid")
e("health/ruth_thyroid", "Ruth takes levothyroxine 75mcg every morning on an empty stomach", 900, "fact")
e("health/bp_meds", "Also on bisoprolol 2.5mg in the morning for heart rate control", 1000, "fact")
e("volunteering/foodbank", "Volunteers at York Foodbank warehouse on Wednesday mornings, 9 till 12, sorting donations and checking dates", 400, "fact")
e("hobby/layout", "OO gauge model railway 'Thornbury Junction' - Southern Region in the 1950s, Bulleid Pacifics and green EMUs, DCC controlled with a NCE PowerCab", 1200, "fact", "model railway")
e("layout_location", "Thornbury Junction is in the garage, 16ft by 8ft around-the-walls baseboards", 700, "fact")
e("hobby/birding", "Birdwatching; local patch is Wheldrake Ings, visits early mornings with the Swarovski 8x42s", 700, "fact")
e("hobby/choir", "Sings bass with York Railway Institute Male Voice Choir, rehearsals Monday 7:30pm at the Institute on Queen Street", 600, "fact", "choir")
e("hobby/allotment", "Has allotment plot 14 at Scarcroft Allotments; grows potatoes, runner beans, onions", 800, "fact")
e("finance/pension", "Railways Pension Scheme pays about £2,150 a month after tax", 700, "fact", "income")
e("finance/state_pension", "State pension started March 2023, about £920 every four weeks into the Nationwide account", 1300, "fact")
e("finance/isa", "Stocks and shares ISA with Vanguard (LifeStrategy 60), roughly £48,000", 500, "fact")
e("finance/bank", "Main current account: Nationwide FlexDirect, joint with Ruth", 1200, "fact")
e("finance/premium_bonds", "£12,000 in Premium Bonds; won £25 twice this year", 200, "fact")
e("finance/mortgage", "Mortgage paid off in 2017", 1400, "fact")
e("finance/lpa", "Lasting power of attorney for health and finances registered 2024; attorneys are Claire and Owen jointly and severally", 700, "decision")
e("friend/geoff", "Best mate from the job is Geoff Tanner (ex-signaller), lives in Doncaster, meet for a pint every couple of months", 1000, "fact", "close friend")
e("family/sister_joan", "Older sister Joan (b.1953), widowed, lives in Middlesbrough near Albert Park", 1100, "fact", "sibling")
e("family/joan_birthday", "Joan's birthday is on 30 April", 1100, "fact")
e("family/brother_keith", "Younger brother Keith lives in Perth, Western Australia; they video-call on Sunday mornings our time, which is Sunday evening in Perth (8 hours ahead in winter, 7 in summer)", 900, "fact")
e("home/address", "Lives at 27 Beckfield Lane, Acomb, York YO26 5PN", 900, "fact", "where the user lives")
e("car", "Drives a 2016 Skoda Octavia estate, silver, reg YK16 ODW", 700, "fact", "user's car")
e("pets/dog", "Dog Bramble, liver and white springer spaniel, 11 years old", 1200, "fact", "pet")
e("travel/passport", "Passport expires in June 2026 - need to renew", 900, "fact")
e("travel/ehic", "Has a UK GHIC card for both him and Ruth, valid until 2028", 500, "fact")
e("travel/insurance", "Annual multi-trip travel insurance with Staysure; declared AF and the knee; covers Europe, renews 1 October", 200, "fact")
e("travel/rail_card", "Senior Railcard, renews each August; also has a Two Together card with Ruth", 400, "fact")
e("travel/airport_assistance", "Books special assistance at airports because of the knee - wheelchair to the gate avoids the long walk", 120, "preference")
e("trip_2027_porto", "Porto trip for Ruth's 70th, April 2027, just the two of us. Main wish list: ride the Douro line up the valley to Pinhão, see the tiles at São Bento, a port lodge tasting in Gaia (Ruth likes tawny), and slow days with no steep hills because of my knee - the knee op in February means I'll still be recovering, so the plan is short walks, taxis up the hills and plenty of sitting in cafés.", 150, "event", "upcoming Porto trip")
e("porto_hotel", "Booked Hotel Infante Sagres in Porto for the April trip, 7 nights, breakfast included", 120, "event")
e("porto_flights", "Jet2 flights Leeds Bradford to Porto, outbound 14 April 2027, return 23 April", 120, "event")
e("porto_douro_booking", "Booked the Douro historic steam train from Régua to Tua for 18 April; tickets in the Gmail folder 'Porto'", 40, "event")
e("norway_trip_plan", "Planning a Bergen Railway trip Oslo to Bergen in June 2027 with Geoff's old crowd", 200, "decision")
e("grandkids_halfterm_plan", "Promised Maya and Theo a day on the NYMR in February half-term, Pickering to Whitby", 35, "decision")
e("ruth/diet", "Ruth is vegetarian (since the 1990s)", 1000, "preference", "wife's diet")
e("ruth/knitting", "Ruth knits for the premature baby unit at York Hospital", 600, "note")
e("ruth/dislikes_coriander", "Ruth can't stand coriander - tastes like soap to her", 700, "preference")
e("den_food_likes", "Favourite meal is steak and ale pie with mushy peas; likes a pint of Timothy Taylor's Landlord", 900, "preference")
e("coffee_order", "Usual coffee: large flat white with full-fat milk", 600, "preference")
e("phone/mobile", "Mobile number 07700 900412 (EE contract)", 800, "fact")
e("emergency_contact", "Emergency contact on medical forms: Claire, 07700 900561", 300, "decision")
e("health/gp", "GP is Dr Fiona Hughes at Jorvik Gillygate Practice", 700, "fact", "family doctor")
e("health/cardiologist", "Cardiologist is Dr Anjali Patel at York Hospital heart clinic", 500, "fact", "heart specialist")
e("cardiology_review", "Next cardiology review 19 January 2027 at 10:40, York Hospital outpatients, bring the Kardia ECG readings", 30, "event", "next heart appointment")
e("kardia_device", "Uses a KardiaMobile six-lead ECG on his phone when he feels palpitations; records go to the clinic", 400, "fact")
e("health/flu_covid", "Had flu and Covid autumn boosters together at the Haxby pharmacy in October 2026", 50, "event")
e("optician", "Reading glasses +2.00 from Specsavers", 700, "fact")
e("dentist", "Dentist: Dr Okoro at Micklegate Dental; check-ups every 9 months", 800, "fact")
e("pharmacy", "Collects repeat prescriptions from Boots on Coney Street", 700, "fact")
e("bins", "Black bin and recycling boxes collected Tuesday mornings (Acomb)", 700, "fact")
e("energy_supplier", "Gas and electric with British Gas, fixed tariff", 700, "fact")
e("broadband", "Broadband with BT, Smart Hub 2 in the front room", 600, "fact")
e("car_insurance", "Car insurance with Admiral, renews in May", 700, "fact")
e("newspaper", "Yorkshire Post delivered daily by Acomb News", 800, "fact")
e("ruth_saturday", "Ruth volunteers at the Oxfam bookshop on Gillygate every Saturday 10-4", 600, "fact")
e("exercise", "Swims at Energise Acomb Tuesday and Friday 7am, 30 lengths", 700, "fact")
e("anniversary_restaurant", "For anniversaries and birthdays they book Melton's on Scarcroft Road", 900, "preference")
e("will", "Will written with Harrowells solicitors in 2012; copy in the grey filing box", 1500, "fact")
e("nymr_role", "Qualified NYMR signalman at Levisham box; does about two turns a month in the running season", 700, "fact", "heritage railway volunteering")
e("nymr_seasons", "NYMR running season March to early November, plus Santa specials in December", 700, "fact")
e("nymr_uniform", "Keeps NYMR uniform and the signal box key on the hook by the back door", 300, "note")
e("school_pickup", "Picks Maya and Theo up from Moortown Primary every Tuesday and Thursday at 3:15, then tea at Claire's", 300, "fact", "childcare")
e("maya_school", "Maya is at Moortown Primary, Year 6, teacher Mrs Addo", 400, "fact")
e("maya_clothes", "Maya wears age 9-10 clothes, shoe size 1", 400, "fact")
e("grandkids/theo_likes", "Theo loves Thomas the Tank Engine and dinosaurs; has the wooden Brio set", 600, "preference")
e("owen_home", "Owen and Jess live in Bristol (Bishopston), flat on Gloucester Road", 1000, "fact")
e("claire_job", "Claire works as a physiotherapist at Leeds General Infirmary, musculoskeletal outpatients", 900, "fact")
e("owen_jess_engaged", "Owen and Jess got engaged on holiday in Pembrokeshire", 400, "event")
e("weight", "Weighs 94kg (BMI about 31)", 500, "fact")
e("layout_dcc_address_list", "DCC addresses: Merchant Navy 35028 = 28, Battle of Britain 34070 = 70, 4-SUB = 45, Class 33 = 33", 500, "note")
e("magazine", "Subscribes to Railway Modeller, arrives around the 20th", 900, "fact")
e("choir_concert_dec", "Choir Christmas concert 12 December 2026, 7pm at St Michael-le-Belfrey; black tie, arrive 6:15", 25, "event")
e("choir_dues", "Choir subs are £15 a month by standing order", 500, "fact")
e("foodbank_coordinator", "Foodbank warehouse coordinator is Lorraine; text her if can't make a shift on 07700 900233", 350, "fact")
e("sleep_apnoea", "Uses a CPAP machine at night for obstructive sleep apnoea; must take it on trips (needs a travel adapter and distilled water)", 500, "fact", "sleep condition")
e("cpap_airline", "Jet2 allows the CPAP as an extra medical carry-on if you have the letter from the sleep clinic", 130, "note")
e("ruth_70th", "Ruth turns 70 on 2 September 2027; the Porto trip is her present, plus a family lunch planned in September", 150, "decision")
e("boiler", "Boiler is a Worcester Bosch 30i, serviced every October by Heatwise York", 600, "fact")
e("garden_cat_problem", "Neighbour's cat digs up the seedlings; uses chicken wire over the beds", 200, "note")
e("grandkids_sleepover_rules", "Claire's rules for sleepovers at ours: screens off at 7pm, Theo in bed by 7:30 with two stories, Maya by 8:30 and she can read until 9, no fizzy drinks or sweets after tea, teeth brushed properly (Theo needs watching), and ring Claire rather than Amir if anything happens because he'll be asleep after nights. Maya is allowed her phone until 8 but it stays downstairs overnight.", 150, "note")
e("maya_pony", "Maya's favourite pony at the riding school is Biscuit, a skewbald", 100, "note")
e("amir_parents", "Amir's parents, Samir and Leila Haddad, live in Manchester; Leila makes amazing ma'amoul at Eid", 700, "fact")
e("christmas_2026_plan", "Christmas 2026 at Claire's in Leeds; Owen, Jess and Iris coming up on the 23rd; Den does the roast potatoes", 20, "decision")
e("photo_backup", "Family photos backed up to Google Photos and a WD external drive in the study drawer", 400, "note")
e("walking_poles", "Uses Leki walking poles on descents since the knee got worse", 200, "preference")
e("bus_pass", "Has an ENCTS bus pass; the 1 and 5 buses into York centre", 800, "fact")
e("parking_hospital", "York Hospital parking: use the multistorey off Wigginton Road, pay on exit; blue badge not eligible", 300, "note")
e("blue_badge_application", "Applied for a blue badge in October 2026 because of the knee; council says 12 weeks", 45, "event")
e("knee_physio", "NHS physio exercises for the knee: straight leg raises, mini squats, static bike 10 minutes, twice daily", 150, "note")
e("geoff_birthday", "Geoff's birthday is 5 October; likes single malts, Highland Park", 600, "fact")
e("keith_visit", "Keith flying over from Perth in May 2027 for three weeks; will stay in the spare room", 60, "event")
e("tv_preferences", "Watches University Challenge, Only Connect, and anything with Michael Portillo on trains", 800, "preference")
e("reading_now", "Reading 'The Railway Detective' series by Edward Marston, on book 9", 90, "note")

# ---------------------------------------------------------------- newer versions (updates)
e("house_move_2025", "Completed on the bungalow in Haxby in April 2025 - 6 Westfield Close, Haxby, YO32 3HQ. Sold Beckfield Lane.", 590, "event", "where the user lives now")
e("vehicle/new_car", "Picked up a Toyota Corolla Touring Sports hybrid (dark blue, YC25 TKN) in March; part-exchanged the old estate", 260, "event")
e("heart_clinic_change", "Dr Patel has moved to Hull Royal; my heart care has been handed over to Dr Marcus Leigh at York", 120, "event")
e("anticoag_history", "Was on warfarin with INR checks every 3 weeks until 2023", 1200, "fact")
e("apixaban_switch", "Now on apixaban 5mg twice daily (8am and 8pm) - no more INR clinic. No ibuprofen or aspirin.", 1000, "decision", "blood thinner")
e("statin_increase", "Dr Okafor increased the atorvastatin to 40mg at night after the October cholesterol result", 55, "decision")
e("choir_rehearsals_moved", "Institute building sold - choir practice is now Wednesdays 7pm at Priory Street Methodist hall", 45, "event")
e("foodbank/rota", "Swapped foodbank shift to Friday 1-4pm to fit round choir", 40, "decision")
e("pickup_days_2026", "From September Claire only needs me for Monday and Wednesday pickups, from Allerton Grange (Maya) and Moortown Primary (Theo)", 80, "decision")
e("nymr_goathland_box", "Passed out at Goathland signal box in June; now rostered almost entirely there rather than Levisham", 150, "event")
e("maya_sizes", "Maya's now in age 11-12 clothes and size 3 shoes - grew loads this autumn", 30, "fact")
e("owen_move", "Owen and Jess moved to Cardiff (Canton) in June for Jess's new post at the University Hospital of Wales", 170, "event", "where the son lives")
e("claire_new_job", "Claire left the NHS and opened her own sports injury clinic, Moortown Physio, on Street Lane", 150, "event")
e("ruth_minster_guide", "Ruth finished at the bookshop; she's now a volunteer guide at York Minster on Saturdays", 60, "event")
e("bloods_oct_2026", "October bloods: HbA1c down to 39 - back in the normal range, nurse pleased with the weight loss", 50, "event")
e("knee_surgery_date", "Left total knee replacement booked for 3 February 2027 at Clifton Park Hospital, surgeon Mr Ahmed; pre-op assessment 13 January", 20, "event", "knee operation")
e("hearing_aids_rechargeable", "New NHS hearing aids (both ears now) are rechargeable - just put them in the charging case overnight", 90, "fact")
e("isa_transfer", "Moved the ISA from Vanguard to Fidelity in the summer; now in a global tracker, about £51k", 100, "event")
e("energy_octopus", "Switched gas and electric to Octopus Energy (Tracker tariff) in June", 150, "event")
e("internet_provider", "Broadband now Zen Internet full fibre; router in the hall cupboard", 100, "fact")
e("new_dentist", "Registered with Haxby Dental after the move; dentist is Mr Shah", 300, "fact")
e("prescriptions_pharmacy", "Repeat prescriptions now come by post from Pharmacy2U, ordered through the NHS app", 200, "decision")
e("layout_rebuild", "Rebuilding Thornbury Junction as North Eastern Region, early 1960s - Deltics, Class 40s and B1s; Southern stock sold on eBay", 120, "decision")
e("railway_room", "The layout is now in the loft room at the bungalow; garage is too damp", 250, "fact")
e("allotment_haxby", "Gave up Scarcroft; now on plot 7 at Haxby Road allotments, 5 minutes' walk", 280, "event")
e("weight_latest", "Surgery weigh-in last week: 86.5kg", 14, "fact")
e("decaf_now", "Only decaf since the AF flare-up in the summer - decaf oat latte, regular size", 100, "preference")
e("glasses_new", "New varifocals from the Haxby optician, reading add +2.50", 60, "fact")
e("insurance_car_2026", "Car insurance moved to LV= when the Toyota came; renews 11 March", 250, "fact")
e("passport_renewed", "New passport arrived in March 2026, valid until 2036", 260, "event")
e("geoff_care_home", "Geoff had a stroke in October and is now in Ashfield care home in Bawtry; visiting 2-5pm", 40, "event")
e("joan_spain", "Joan sold up and moved to Torrevieja near Alicante to be near her daughter", 300, "event")
e("exercise_now", "Aqua-fit class at Haxby pool Monday and Thursday 10am - easier on the knee than lengths", 90, "fact")
e("maya_secondary", "Maya started at Allerton Grange secondary school in September 2026, form 7AG", 90, "event")
e("news_subscription", "Cancelled the paper delivery; reads the Guardian on the iPad now", 100, "decision")
e("birding_patch_new", "New birding patch since the move: Strensall Common and the Foss at Haxby", 200, "fact")
e("meltons_closed", "Melton's has closed; special occasions now at Skosh on Micklegate", 200, "fact")
e("will_updated", "New will signed with Ison Harrison in 2025, includes a trust for the three grandchildren; original held by the firm", 350, "event")
e("pension_uplift_2026", "After the April uplift the railway pension is £2,280 a month net", 230, "fact")
e("switzerland_instead", "Dropped the Norway idea - booked the Glacier Express Zermatt to St Moritz for 10 June 2027, excellence class", 30, "decision")
e("porto_rebooked", "Cancelled the Infante Sagres (too many steps) - booked a step-free apartment on Rua da Alfândega near Ribeira", 25, "decision")
e("porto_flight_change", "Jet2 moved our Porto outbound to 16 April, 06:40 from Leeds Bradford; return still 23 April, landing 21:10", 10, "event")
e("ruth_pescatarian", "Ruth's started eating fish again - pescatarian now, still no meat", 150, "preference")
e("owen_wedding", "Owen and Jess got married at Cardiff City Hall on 12 September 2026; she's kept her name Pryce", 80, "event")
e("gp_new_haxby", "Registered at Haxby Group Practice after the move; usual GP Dr Sam Okafor", 550, "fact")
e("new_mobile", "New mobile number after moving to giffgaff: 07700 900877", 60, "fact")
e("haxby_bins", "Haxby bins: grey bin and recycling Friday; green garden waste every other Monday", 560, "fact")
e("bramble_died", "Bramble was put to sleep in March 2025, aged 13", 600, "event")
e("new_dog", "Adopted Percy, a retired racing greyhound (black, 6), from the Greyhound Trust; walks twice a day", 100, "event", "pet")
e("theo_interests_now", "Theo's gone right off trains - it's all Minecraft and Pokémon cards now", 30, "preference")
e("magazine_switch", "Stopped Railway Modeller, now get Hornby Magazine on the Zinio app", 110, "decision")
e("emergency_contact_update", "Changed the emergency contact to Owen after Claire's clinic opened - Owen's on 07700 900614", 20, "decision")
e("choir_concert_moved", "Christmas concert moved to 13 December, 3pm matinee at Holy Trinity Goodramgate (St Michael's roof repairs)", 8, "event")
e("knee_waiting_list", "Put on the orthopaedic waiting list for a left knee replacement; letter says 40 to 50 weeks", 400, "event")

# ---------------------------------------------------------------- questions: update
U = [
 ("u01", "I'm filling in the registration for the over-60s walking group - what address should I put down?", ["house_move_2025"], ["home/address"]),
 ("u02", "The car park attendant wants my registration number, what is it?", ["vehicle/new_car"], ["car"]),
 ("u03", "Who's the consultant looking after my heart these days?", ["heart_clinic_change"], ["health/cardiologist"]),
 ("u04", "Do I still have to book those regular finger-prick clotting checks?", ["apixaban_switch"], ["anticoag_history"]),
 ("u05", "What dose of the cholesterol tablet am I meant to be taking at bedtime?", ["statin_increase"], ["health/statin"]),
 ("u06", "When's singing practice this week?", ["choir_rehearsals_moved"], ["hobby/choir"]),
 ("u07", "Which day am I down to help sort tins at the warehouse?", ["foodbank/rota"], ["volunteering/foodbank"]),
 ("u08", "Claire's asked if I can swap a pickup day - which days am I normally collecting the kids?", ["pickup_days_2026"], ["school_pickup"]),
 ("u09", "Someone at the pub asked which signal box I work on the Moors line. What do I tell them?", ["nymr_goathland_box"], ["nymr_role"]),
 ("u10", "I'm in Next and want to buy Maya a fleece - what size should I get?", ["maya_sizes"], ["maya_clothes"]),
 ("u11", "I'm posting Owen a parcel. Which city are they in?", ["owen_move"], ["owen_home"]),
 ("u12", "A friend asked where my daughter works now - physio at the LGI still?", ["claire_new_job"], ["claire_job"]),
 ("u13", "What does Ruth get up to on Saturdays?", ["ruth_minster_guide"], ["ruth_saturday"]),
 ("u14", "Am I still counted as borderline diabetic?", ["bloods_oct_2026"], ["health/hba1c_2025"]),
 ("u15", "How long have I got to wait for the new knee?", ["knee_surgery_date"], ["knee_waiting_list"]),
 ("u16", "I'm at the chemist - do I need to pick up batteries for my hearing aids?", ["hearing_aids_rechargeable"], ["health/hearing"]),
 ("u17", "Which platform is my tax-free investment pot held with?", ["isa_transfer"], ["finance/isa"]),
 ("u18", "Who supplies our gas and electricity? I need to submit a meter reading.", ["energy_octopus"], ["energy_supplier"]),
 ("u19", "The wifi keeps dropping - who do I ring?", ["internet_provider"], ["broadband"]),
 ("u20", "I've chipped a tooth, which practice do I call?", ["new_dentist"], ["dentist"]),
 ("u21", "Where do my repeat tablets come from these days?", ["prescriptions_pharmacy"], ["pharmacy"]),
 ("u22", "The club secretary wants a blurb about my layout for the exhibition guide - what region and period is it modelling?", ["layout_rebuild"], ["hobby/layout"]),
 ("u23", "Where in the house is the train set now?", ["railway_room"], ["layout_location"]),
 ("u24", "Which plot am I on, for the seed order form?", ["allotment_haxby"], ["hobby/allotment"]),
 ("u25", "How heavy am I at the moment?", ["weight_latest"], ["weight"]),
 ("u26", "Ruth's gone to the counter at Bettys - what should she get me to drink?", ["decaf_now"], ["coffee_order"]),
 ("u27", "What strength are my specs? I've sat on them and need a spare pair.", ["glasses_new"], ["optician"]),
 ("u28", "When does the motor insurance come up for renewal and who's it with?", ["insurance_car_2026"], ["car_insurance"]),
 ("u29", "Will my passport be fine for travelling abroad next year?", ["passport_renewed"], ["travel/passport"]),
 ("u30", "I'd like to go and see Geoff this weekend - where do I head?", ["geoff_care_home"], ["friend/geoff"]),
 ("u31", "Could I pop in on my sister on the way back from Newcastle?", ["joan_spain"], ["family/sister_joan"]),
 ("u32", "What's my exercise routine during the week?", ["exercise_now"], ["exercise"]),
 ("u33", "Which school does our eldest granddaughter go to?", ["maya_secondary"], ["maya_school"]),
 ("u34", "The newsagent's bill came through - do we still get a paper delivered?", ["news_subscription"], ["newspaper"]),
 ("u35", "Where do I usually go looking for birds now?", ["birding_patch_new"], ["hobby/birding"]),
 ("u36", "Where should I book for our anniversary dinner?", ["meltons_closed"], ["anniversary_restaurant"]),
 ("u37", "Which solicitor holds my will?", ["will_updated"], ["will"]),
 ("u38", "How much comes in each month from the railway pension?", ["pension_uplift_2026"], ["finance/pension"]),
 ("u39", "Where am I off to on the big rail trip next summer?", ["switzerland_instead"], ["norway_trip_plan"]),
 ("u40", "Where are we staying in Porto?", ["porto_rebooked"], ["porto_hotel"]),
 ("u41", "What time do we fly out to Portugal, and on which day?", ["porto_flight_change"], ["porto_flights"]),
 ("u42", "I'm doing a fish pie for Sunday - can Ruth have some?", ["ruth_pescatarian"], ["ruth/diet"]),
 ("u43", "Writing a card to Owen and Jess - should it say 'Mr and Mrs Whitcombe'?", ["owen_wedding"], ["owen_jess_engaged"]),
 ("u44", "Which doctor's surgery am I registered with?", ["gp_new_haxby"], ["health/gp"]),
 ("u45", "The hospital wants a number to text me on - what's my mobile?", ["new_mobile"], ["phone/mobile"]),
 ("u46", "What night do I put the wheelie bin out?", ["haxby_bins"], ["bins"]),
 ("u47", "The vet's receptionist asked my dog's name and breed.", ["new_dog"], ["pets/dog"]),
 ("u48", "Any ideas what Theo would like as a present?", ["theo_interests_now"], ["grandkids/theo_likes"]),
 ("u49", "Which modelling magazine am I subscribed to?", ["magazine_switch"], ["magazine"]),
 ("u50", "Who did I list as my emergency contact?", ["emergency_contact_update"], ["emergency_contact"]),
 ("u51", "What time should I be at the Christmas concert, and where is it?", ["choir_concert_moved"], ["choir_concert_dec"]),
]
for qid, text, ans, st in U:
    q(qid, "update", [text], ans, st)

# ---------------------------------------------------------------- more meaningful entries
e("ruth_seasick", "Ruth gets terribly seasick, even on calm water - avoid boat trips and ferries where possible", 800, "fact")
e("den_heights", "Doesn't do heights: froze halfway up the Scott Monument in 2010, won't do towers or glass walkways", 1100, "preference")
e("night_driving", "Optician advised against driving after dark because of early cataract glare in the left eye", 75, "note")
e("ruth_gift_hint", "Ruth keeps hinting at a Le Creuset round casserole in 'Sage' green", 25, "note")
e("maya_christmas_list", "Maya's Christmas list: proper jodhpur boots (size 3) and a hoof pick set", 15, "note")
e("iris_gift_guidance", "Jess says Iris needs board books and wooden stacking toys - please no plastic or anything noisy", 40, "note")
e("percy_vet", "Percy's vet is Minster Vets, Haxby branch. He must wear his muzzle near small dogs and cats - high prey drive.", 90, "fact")
e("percy_food", "Percy eats Burns Original, two scoops morning and evening, plus a joint supplement (YuMOVE)", 80, "fact")
e("shed_code", "Garage keypad and shed padlock combination is 4417", 300, "note")
e("neighbour_brenda", "Neighbour Brenda Holt at number 8, retired nurse, has our spare key and happily walks Percy when we're away", 90, "fact")
e("den_shoe_size", "Shoe size 10, wide fit (E/F); Hotter or Clarks suit him", 500, "fact")
e("consultancy_siemens", "Does a few days a year of paid consultancy for Siemens Mobility reviewing signalling designs, £350 a day", 300, "fact")
e("self_assessment", "Has to file a self-assessment tax return for the consultancy income - deadline 31 January; accountant is Chris Marr", 120, "note")
e("ruth_not_driving", "Ruth gave up driving in 2025 because of macular degeneration; she takes the bus or Den drives her", 300, "fact")
e("blood_group", "Blood group is O negative (on the donor card)", 1500, "fact")
e("ruth_hip", "Ruth had a right hip replacement in 2020; can't kneel or sit on low sofas", 1000, "fact")
e("den_cake", "Favourite cake is Ruth's lemon drizzle; birthday cake must be lemon", 900, "preference")
e("ruth_music", "Ruth loves Fleetwood Mac and Radio 3's Breakfast; went to see Stevie Nicks in 2024", 500, "preference")
e("theo_reading", "Theo is a reluctant reader - the school says to read with him 10 minutes a night; he likes Dog Man", 60, "note")
e("maya_science", "Maya wants to be a vet; top of her class in science", 70, "note")
e("owen_birthday", "Owen's birthday is 21 August", 1300, "fact")
e("claire_birthday", "Claire's birthday is 9 May", 1300, "fact")
e("jess_birthday", "Jess's birthday is 3 December", 400, "fact")
e("amir_birthday", "Amir's birthday is 27 January", 800, "fact")
e("iris_christening", "Iris's naming ceremony at Roath Park in July 2025 - Den did a reading", 500, "event")

# ---------------------------------------------------------------- questions: direct
D = [
 ("d01", "When is Ruth's birthday?", ["family/wife_birthday"]),
 ("d02", "What date is our wedding anniversary?", ["wedding_anniversary"]),
 ("d03", "When is my next cardiology review?", ["cardiology_review"]),
 ("d04", "When was Iris born?", ["grandkids/iris"]),
 ("d05", "What day does Maya have swimming club?", ["maya_swimming"]),
 ("d06", "Where does Claire keep the spare EpiPen for Theo?", ["theo_peanut_allergy"]),
 ("d07", "How much have I got in Premium Bonds?", ["finance/premium_bonds"]),
 ("d08", "Who are the attorneys on my lasting power of attorney?", ["finance/lpa"]),
 ("d09", "When is Joan's birthday?", ["family/joan_birthday"]),
 ("d10", "When is Keith flying over from Perth?", ["keith_visit"]),
 ("d11", "What's Geoff's birthday?", ["geoff_birthday"]),
 ("d12", "Remind me of Claire's sleepover rules for the kids.", ["grandkids_sleepover_rules"]),
 ("d13", "Which Douro steam train did I book and for what date?", ["porto_douro_booking"]),
 ("d14", "When does the NYMR running season start and finish?", ["nymr_seasons"]),
 ("d15", "What knee physio exercises am I supposed to do?", ["knee_physio"]),
 ("d16", "When did I apply for the blue badge?", ["blue_badge_application"]),
 ("d17", "Where's best to park at York Hospital?", ["parking_hospital"]),
 ("d18", "Who's the foodbank coordinator?", ["foodbank_coordinator"]),
 ("d19", "What's the plan for Christmas 2026?", ["christmas_2026_plan"]),
 ("d20", "What boiler have we got and who services it?", ["boiler"]),
 ("d21", "Who is my travel insurance with and when does it renew?", ["travel/insurance"]),
 ("d22", "How much are my choir subs?", ["choir_dues"]),
 ("d23", "Which Railway Detective book am I up to?", ["reading_now"]),
 ("d24", "What's the name of Maya's favourite pony at the riding school?", ["maya_pony"]),
 ("d25", "Where does Amir work?", ["family/son_in_law"]),
 ("d26", "When did my state pension start?", ["finance/state_pension"]),
 ("d27", "What's my blood group?", ["blood_group"]),
 ("d28", "What's Jess's birthday?", ["jess_birthday"]),
 ("d29", "What's the shed padlock combination?", ["shed_code"]),
 ("d30", "When did I have my flu and Covid boosters?", ["health/flu_covid"]),
 ("d31", "What does Percy eat and how much?", ["percy_food"]),
 ("d32", "When is the self-assessment deadline and who's my accountant?", ["self_assessment"]),
]
for qid, text, ans in D:
    q(qid, "direct", [text], ans)

# ---------------------------------------------------------------- questions: paraphrase
P = [
 ("p01", "My back's killing me after the allotment - can I just take a couple of Nurofen?", ["apixaban_switch"]),
 ("p02", "We're at the Magpie in Whitby - what should I steer clear of on the menu?", ["diet/shellfish"]),
 ("p03", "The dentist wants to give me antibiotics for an abscess. Anything I should tell him first?", ["health/allergy_penicillin"]),
 ("p04", "I'm making a Thai green curry for tea - anything Ruth would want left out?", ["ruth/dislikes_coriander"]),
 ("p05", "Buying sweets for the kids' party bags this afternoon - anything to watch out for?", ["theo_peanut_allergy"]),
 ("p06", "Fancy a glass of that pink breakfast juice from the market, is that alright for me?", ["diet/grapefruit"]),
 ("p07", "What mustn't I forget to pack so I can get a decent night's sleep away from home?", ["sleep_apnoea"]),
 ("p08", "Will the airline let me carry the breathing machine on as well as my normal bag?", ["cpap_airline"]),
 ("p09", "The baby's staying over - can she have a bit of toast with honey and a beaker of milk?", ["iris_milk"]),
 ("p10", "How can I get into town without the car?", ["bus_pass", "haxby_bus"]),
 ("p11", "Thinking of doing Roseberry Topping with the walking group - how should I manage the way down?", ["walking_poles", "health/knee"]),
 ("p12", "If I was ever too poorly to decide things myself, who'd be in charge of my affairs?", ["finance/lpa"]),
 ("p13", "What should I get in at the pub for myself tonight?", ["den_food_likes"]),
 ("p14", "What's my wife doing with all that yarn she keeps buying?", ["ruth/knitting"]),
 ("p15", "Nothing planned tonight - what sort of telly do I enjoy?", ["tv_preferences"]),
 ("p16", "Which of Ruth's tablets has to go down before she's had anything to eat?", ["health/ruth_thyroid"]),
 ("p17", "How do I get out of that endless trek to the gate at the airport?", ["travel/airport_assistance"]),
 ("p18", "What did the lads in the office give me as a send-off?", ["career/retirement_gift"]),
 ("p19", "How old am I turning next spring?", ["profile/birthday"]),
 ("p20", "My granddaughter's class wants to know what grandad did before he stopped working.", ["career/railway"]),
 ("p21", "How did my irregular heartbeat first come to light?", ["health/afib"]),
 ("p22", "Do we still owe the building society anything on the house?", ["finance/mortgage"]),
 ("p23", "Something keeps digging up my seedlings - what did I do about it last time?", ["garden_cat_problem"]),
 ("p24", "Who's Leila again?", ["amir_parents"]),
 ("p25", "What time of day is best to ring my brother?", ["family/brother_keith"]),
 ("p26", "Which pill am I on to keep my pulse steady?", ["health/bp_meds"]),
 ("p27", "Where did I leave the key for the box on the Moors?", ["nymr_uniform"]),
 ("p28", "Do we need to sort out medical cover cards before going to the continent?", ["travel/ehic"]),
 ("p29", "Should we book a river cruise up the Douro while we're in Portugal?", ["ruth_seasick"]),
 ("p30", "The grandkids want me to go up the Clérigos tower with them - is that a good idea?", ["den_heights"]),
 ("p31", "Owen's leaving do finishes at ten - can I drive myself home afterwards?", ["night_driving"]),
 ("p32", "Any idea what to get my other half for Christmas?", ["ruth_gift_hint"]),
 ("p33", "Can Percy have a run around with the neighbour's Yorkie off the lead?", ["percy_vet"]),
 ("p34", "Who could mind the dog while we're away?", ["neighbour_brenda"]),
 ("p35", "I'm after new walking boots - what should I ask the shop for?", ["den_shoe_size"]),
 ("p36", "Anything I need to send HMRC before February?", ["self_assessment"]),
 ("p37", "Could Ruth take the car over to the Minster herself?", ["ruth_not_driving"]),
 ("p38", "Where can Ruth sit comfortably at Claire's - the low beanbag sofa?", ["ruth_hip"]),
 ("p39", "Ruth asked what sort of cake I want for my birthday.", ["den_cake"]),
 ("p40", "Helping Theo with homework tonight - what's the school asked us to do?", ["theo_reading"]),
 ("p41", "What does Maya want to be when she grows up?", ["maya_science"]),
 ("p42", "Who pays me to look over drawings these days, and at what rate?", ["consultancy_siemens"]),
]
for qid, text, ans in P:
    q(qid, "paraphrase", [text], ans)

e("nymr_rules_refresher", "NYMR signalling rules refresher every two years with instructor Pete Dowson; next one due March 2027", 120, "fact")
e("reading_volunteer", "Listens to Year 2 readers at Haxby Road Primary on Friday mornings, 9:15-10:30 (DBS done 2025)", 70, "fact")
e("ruth_book_club", "Ruth's book club meets the first Tuesday of the month at Jean's house", 400, "fact")
e("allotment_rent", "Allotment rent is £48 a year, due 1 October to Haxby Town Council", 280, "fact")
e("preop_bag_list", "Hospital bag for the knee op: all medicines in their boxes, CPAP machine, loose joggers, long shoehorn, grabber, phone charger", 15, "note")
e("apixaban_surgery", "Pre-op nurse said apixaban will need stopping 48 hours before the knee op - exact instructions at the 13 January pre-assessment", 18, "note")
e("knee_recovery_plan", "After the knee op: no driving for 6 weeks; Owen coming up for the first week to help, Claire to check the physio plan", 12, "decision")
e("den_dislikes_food", "Can't abide olives or blue cheese", 900, "preference")
e("choir_solo", "Has the bass solo in 'Myfanwy' at the Christmas concert", 25, "event")
e("choir_dress", "Choir concert dress: black dinner jacket, maroon bow tie, Institute badge on the lapel", 500, "fact")
e("booster_seat", "Theo still needs a high-back booster seat; one lives in the Toyota boot", 150, "note")
e("maya_riding_lessons", "Maya's riding lessons are Saturday 9am at Eccup, £32 a time - Den pays for them as her birthday present", 200, "fact")
e("ruth_pension", "Ruth's teachers' pension is about £1,400 a month", 700, "fact")
e("council_tax", "Council tax band D, about £2,190 a year, direct debit over 10 months", 400, "fact")
e("breakdown_cover", "RAC breakdown cover, membership card in the glovebox booklet; renews with the car insurance", 250, "fact")
e("home_insurance", "Home and contents insurance with Aviva, renews 2 June", 500, "fact")
e("roast_potatoes", "Den's roast potatoes: Maris Piper, par-boil 8 minutes, shake, goose fat at 220C for an hour", 300, "note")
e("phones", "Den uses an iPhone 13; Ruth has a Samsung Galaxy A54", 300, "fact")
e("prefers_trains", "Would rather go by train than fly whenever the rail journey is under about 12 hours", 600, "preference")
e("swiss_route", "Plan for Switzerland: Eurostar to Paris, TGV Lyria to Lausanne, then train to Visp and Zermatt - two days each way", 25, "decision")
e("zermatt_hotel", "Booked Hotel Bahnhof in Zermatt, 8-10 June 2027, opposite the station", 22, "event")
e("swiss_half_fare", "Going to buy the Swiss Half Fare Card; Glacier Express seat reservation is separate (paid)", 22, "note")
e("allotment_crops_2026", "Plot 7 this year: Charlotte potatoes, Scarlet Emperor runners, Sturon onions and a pumpkin patch for Theo", 150, "note")
e("den_hymn_funeral", "Told Claire: at my funeral I want 'Abide with Me' and the choir to sing 'Gwahoddiad'", 300, "decision")
e("claire_clinic_hours", "Claire's clinic is open late Tuesdays and Thursdays until 8pm - that's why she needs help with tea those nights", 70, "fact")
e("amir_nights_rota", "Amir's on nights the first week of every month", 100, "fact")
e("owen_phone", "Owen's mobile number is 07700 900614", 800, "fact")
e("jess_job_cardiff", "Jess is a paediatric speech and language therapist at the University Hospital of Wales", 160, "fact")

# ---------------------------------------------------------------- questions: drift
DR = [
 ("r01", ["Morning! Bit grey out there today.", "Ruth's off to her book club later so I've got the house to myself.", "Right, what's the combination for the shed? I need the strimmer."], ["shed_code"]),
 ("r02", ["Did you see the Deltic on the Settle-Carlisle last week? Lovely sound.", "I've been reading about the Stainmore line closure, what a loss.", "Anyway, what date is my cardiology appointment?"], ["cardiology_review"]),
 ("r03", ["Porto in April is going to be lovely, I hope.", "Ruth's been practising her Portuguese with an app.", "Changing the subject - what does Percy eat? Brenda's feeding him tomorrow."], ["percy_food"]),
 ("r04", ["The choir sounded awful on Wednesday, the tenors were flat.", "Still, the Christmas stuff is coming together.", "What's the name of the surgeon doing my knee?"], ["knee_surgery_date"]),
 ("r05", ["Maya got a merit in science this week.", "Theo lost a tooth at school and was thrilled.", "What are Claire's rules for bedtime when they stay over?"], ["grandkids_sleepover_rules"]),
 ("r06", ["I watched the Portillo episode about the Highland line last night.", "Made me want to go back to Kyle of Lochalsh.", "Where do I need to post Keith's birthday card? Which city is he in?"], ["family/brother_keith"]),
 ("r07", ["Had a lovely walk round Strensall Common with Percy.", "Saw a stonechat, first in ages.", "How much do I pay for the allotment and when?"], ["allotment_rent"]),
 ("r08", ["Foodbank was busy today, loads of tins came in after the Harvest collection.", "Lorraine's worried about the Christmas demand.", "When do I have to stop the blood thinner before my operation?"], ["apixaban_surgery"]),
 ("r09", ["It's Jess's birthday this week, I think.", "Never mind, I'll check later.", "What should I pack in my hospital bag for the knee op?"], ["preop_bag_list"]),
 ("r10", ["York were rubbish on Saturday again.", "Two-nil down by half time.", "How far ahead of us is Perth? I want to ring my brother at the usual time."], ["family/brother_keith"]),
 ("r11", ["I've just fixed the point motor on the down loop.", "The Deltic runs beautifully over it now.", "Who's giving my signalling rules refresher and when is it due?"], ["nymr_rules_refresher"]),
 ("r12", ["Ruth's baking again, the house smells great.", "She's trying a new scone recipe from Bake Off.", "What's the solo I'm singing at the concert?"], ["choir_solo"]),
 ("r13", ["Council dug up Station Road again.", "Took me twenty minutes to get to the Co-op.", "What do I wear for the choir concert?"], ["choir_dress"]),
 ("r14", ["Iris is crawling now apparently!", "Jess sent a video.", "What's Amir's work pattern - is he on nights next week? It's the first week of the month."], ["amir_nights_rota"]),
 ("r15", ["We had a power cut last night for an hour.", "Had to find the candles.", "How much is Ruth's pension a month? We're doing the budget."], ["ruth_pension"]),
 ("r16", ["Lovely sunset over the Vale tonight.", "Percy's flat out on the rug.", "What's the council tax costing us this year?"], ["council_tax"]),
 ("r17", ["Car made a funny noise on the A64.", "It went away after a bit.", "Who's our breakdown cover with, in case it comes back?"], ["breakdown_cover"]),
 ("r18", ["The loft's freezing, I need a heater up there for the layout.", "Pipes in the garage were fine though.", "When does the house insurance renew?"], ["home_insurance"]),
 ("r19", ["Claire rang, she's shattered.", "The clinic's doing well though.", "Remind me how I do the roast potatoes - I'm on spud duty this Christmas."], ["roast_potatoes"]),
 ("r20", ["Been trying to get my head round the new NHS app.", "It keeps logging me out.", "What phone has Ruth got? I'm trying to help her install it."], ["phones"]),
 ("r21", ["The Flying Scotsman's coming to the Moors next year, apparently.", "Bet it'll be packed.", "How are we getting to Zermatt - are we flying?"], ["swiss_route"]),
 ("r22", ["My grandad used to say the LNER was the best railway in the world.", "He might have been right.", "Where are we staying in Zermatt and which nights?"], ["zermatt_hotel"]),
 ("r23", ["Bit of a headache this morning - too much Landlord last night.", "Geoff would've laughed.", "Do I need to buy any railcard or pass for Switzerland?"], ["swiss_half_fare"]),
 ("r24", ["Jackdaws are nesting in the chimney again.", "I'll need to get someone to put a cowl on.", "What did I plant on the allotment this year?"], ["allotment_crops_2026"]),
 ("r25", ["It was Uncle Fred's funeral today.", "Lovely service in Darlington.", "Have I told Claire what I want sung at mine?"], ["den_hymn_funeral"]),
 ("r26", ["Traffic on the ring road was terrible.", "Everyone Christmas shopping already.", "Why does Claire need me for tea on particular nights?"], ["claire_clinic_hours"]),
 ("r27", ["I tried that new bakery in Haxby, not bad.", "Their sausage rolls are better than Greggs.", "What's Owen's number? My phone lost the contacts."], ["owen_phone"]),
 ("r28", ["Weather's turned properly cold now.", "The greyhound needs his coat on.", "What exactly does Jess do at the hospital in Cardiff?"], ["jess_job_cardiff"]),
 ("r29", ["Ruth says I talk too much about trains.", "She's probably right.", "Which day and time are the Friday reading sessions at the school?"], ["reading_volunteer"]),
 ("r30", ["Anyway, enough about the weather.", "Did I tell you about the Class 40 I bought on eBay?", "What's Maya's riding lesson time and cost?"], ["maya_riding_lessons"]),
 ("r31", ["I've been clearing out the study.", "Found my old BR rule book from 1981!", "Does Theo still need a booster seat in the car?"], ["booster_seat"]),
 ("r32", ["Pete at the club is selling his Peco track cheap.", "Might buy some for the fiddle yard.", "When's Owen's birthday? I want to plan ahead this time."], ["owen_birthday"]),
 ("r33", ["The mince pies at the foodbank were a hit.", "Lorraine made them herself.", "When's Claire's birthday?"], ["claire_birthday"]),
 ("r34", ["Watched the snooker last night, great final.", "Ruth fell asleep halfway through.", "What's Amir's birthday?"], ["amir_birthday"]),
 ("r35", ["Took the Toyota through the car wash.", "First time since the summer, shameful.", "What's that music Ruth loves? I want to get her a record."], ["ruth_music"]),
 ("r36", ["Another email from the bank about scams.", "They really go on about it.", "What is it I can't stand to eat? Ruth's ordering a platter."], ["den_dislikes_food"]),
 ("r37", ["I'm knackered after the school run.", "Theo wouldn't stop talking about Minecraft.", "When is Ruth's book club?"], ["ruth_book_club"]),
 ("r38", ["Honestly the price of bird seed now.", "Fifteen quid for a bag of sunflower hearts.", "What's the plan for after my knee surgery, who's helping out?"], ["knee_recovery_plan"]),
 ("r39", ["Good news, the blue badge people wrote back.", "Still processing, apparently.", "Where was Iris's naming ceremony again?"], ["iris_christening"]),
 ("r40", ["It's freezing in the loft.", "I'll have to wear a jumper to run the trains.", "What's Brenda's house number? She's got our spare key, hasn't she?"], ["neighbour_brenda"]),
 ("r41", ["Saw a red kite over the A19 today.", "They've really spread.", "Which number do I text if I can't do a foodbank shift?"], ["foodbank_coordinator"]),
 ("r42", ["My old mate from Doncaster box rang.", "Not Geoff, Alan.", "What's my blood group? The form asks."], ["blood_group"]),
 ("r43", ["Ruth's taken the bus into town.", "She's meeting Pauline for lunch at Bettys.", "When is the heart clinic and what am I supposed to bring to it?"], ["cardiology_review", "kardia_device"]),
 ("r44", ["The Hornby Magazine had a lovely Deltic layout feature.", "Gave me some ideas for the loft.", "What are Maya's Christmas wishes?"], ["maya_christmas_list"]),
 ("r45", ["Owen sent photos of their new flat.", "Proper Victorian terrace.", "What's a good gift for Iris - Jess had views on that, didn't she?"], ["iris_gift_guidance"]),
 ("r46", ["Christmas adverts already, it's not even December.", "John Lewis one made Ruth cry.", "Which day does the NYMR stop running for the year?"], ["nymr_seasons"]),
 ("r47", ["Percy stole a sausage off the counter.", "Cheeky thing.", "When is the knee pre-assessment?"], ["knee_surgery_date"]),
 ("r48", ["Had a good natter with Brenda over the fence.", "Her grandson's joined the army.", "Is it safe for me to have grapefruit marmalade?"], ["diet/grapefruit"]),
 ("r49", ["Claire says the clinic's fully booked till January.", "Good for her.", "What do I need to sort for Theo's allergy if I take him to the panto?"], ["theo_peanut_allergy"]),
 ("r50", ["I've been thinking about redoing the kitchen.", "Ruth wants sage green cupboards.", "How do I charge the new hearing aids?"], ["hearing_aids_rechargeable"]),
 ("r51", ["The Minster bells were ringing for ages today.", "Must have been a wedding.", "Which hymn did I say I wanted at the end of my funeral?"], ["den_hymn_funeral"]),
 ("r52", ["Wheldrake Ings is flooded again, I heard.", "Not that I go there much now.", "What time's Maya's swimming and what does she need to take?"], ["maya_swimming"]),
 ("r53", ["Pickering was heaving on Saturday.", "All the Santa special crowds.", "How many days a year do I do the Siemens reviews and what do they pay?"], ["consultancy_siemens"]),
 ("r54", ["My cousin Graham's retiring from the fire service.", "Party's in Stockton.", "Can we get Ruth a seat that works with her hip at the party venue? What are her limits?"], ["ruth_hip"]),
 ("r55", ["I've been meaning to sharpen the shears.", "The privet's out of control.", "What's the arrangement for airport assistance - do I normally book it?"], ["travel/airport_assistance"]),
 ("r56", ["Ruth loved the Fleetwood Mac documentary.", "She's been humming Dreams all week.", "Did I win anything on the bonds this year?"], ["finance/premium_bonds"]),
 ("r57", ["Jackie from choir has had a fall.", "We're sending flowers.", "When does my travel insurance renew? And have I declared my heart?"], ["travel/insurance"]),
 ("r58", ["So many leaves on the lawn.", "Percy keeps rolling in them.", "Remind me why Percy has to wear his muzzle?"], ["percy_vet"]),
 ("r59", ["Ruth's sister Pauline is visiting on Thursday.", "She'll want the spare room made up.", "What was my last weigh-in at the surgery?"], ["weight_latest"]),
 ("r60", ["Theo wants to show me his Pokémon cards again.", "I don't understand any of it.", "Where did Maya start secondary school?"], ["maya_secondary"]),
 ("r61", ["Geoff seemed a bit brighter when I saw him.", "The care home staff are lovely.", "What's the date of the Douro steam train trip?"], ["porto_douro_booking"]),
]
for qid, turns, ans in DR:
    q(qid, "drift", turns, ans)

# ---------------------------------------------------------------- questions: followup
F = [
 ("f01", ["Maya's been poorly this week, poor lamb.", "When's her birthday again?"], ["grandkids/maya"]),
 ("f02", ["Owen rang this morning, he sounded well.", "What's his wife's job these days?"], ["jess_job_cardiff"]),
 ("f03", ["Geoff's birthday can't be far off.", "What does he like to drink?"], ["geoff_birthday"]),
 ("f04", ["Theo's coming to us for the weekend.", "What's the drill if he eats something he shouldn't?"], ["theo_peanut_allergy"]),
 ("f05", ["Booking a table for Ruth and me in Porto.", "What won't she eat?"], ["ruth/dislikes_coriander", "ruth_pescatarian"]),
 ("f06", ["I was thinking about Joan today.", "Where's she living these days?"], ["joan_spain"]),
 ("f07", ["Percy's been limping since the walk on Sunday.", "Which practice is he with?"], ["percy_vet"]),
 ("f08", ["I've got my heart appointment in January.", "Which doctor will I be seeing?"], ["heart_clinic_change"]),
 ("f09", ["Claire's husband has had a rough month at work.", "Which week is he usually on nights?"], ["amir_nights_rota"]),
 ("f10", ["We're off to Switzerland in June.", "Where are we staying the first couple of nights?"], ["zermatt_hotel"]),
 ("f11", ["Keith's coming over from Australia next year.", "How long is he staying and where will he sleep?"], ["keith_visit"]),
 ("f12", ["Owen's little girl is coming to stay.", "What can she eat and drink?"], ["iris_milk"]),
 ("f13", ["My sister's birthday is coming up.", "What's the date?"], ["family/joan_birthday"]),
 ("f14", ["Maya's been on about her riding school again.", "Which horse is her favourite?"], ["maya_pony"]),
 ("f15", ["I've promised the grandkids a day out on a steam train in February.", "Which stretch of line did I say we'd do?"], ["grandkids_halfterm_plan"]),
 ("f16", ["Ruth's had her thyroid bloods done.", "What dose is she on at the moment?"], ["health/ruth_thyroid"]),
 ("f17", ["The Christmas concert's almost here.", "Which piece have I got the solo in?"], ["choir_solo"]),
 ("f18", ["I was just looking at photos of Owen and Jess.", "When was the wedding?"], ["owen_wedding"]),
 ("f19", ["Ruth's big birthday is next year.", "Besides the trip, what else did we plan for it?"], ["ruth_70th"]),
 ("f20", ["Amir's mum and dad might come for Christmas.", "What are their names and where do they live?"], ["amir_parents"]),
 ("f21", ["The knee operation is in February.", "How soon afterwards can I drive?"], ["knee_recovery_plan"]),
 ("f22", ["Had a chat with Claire about the kids' school.", "She's worried about the little one.", "What did school suggest for his reading?"], ["theo_reading"]),
]
for qid, turns, ans in F:
    q(qid, "followup", turns, ans)

# ---------------------------------------------------------------- questions: multi
M = [
 ("m01", "Plan our Porto week for me: where are we staying, when do we fly, and what can't I eat out there?", ["porto_rebooked", "porto_flight_change", "diet/shellfish"]),
 ("m02", "The pre-op nurse wants a full list of my medicines and any allergies. What do I tell her?", ["apixaban_switch", "statin_increase", "health/bp_meds", "health/allergy_penicillin"]),
 ("m03", "What medical kit and paperwork do I need for flying to Portugal?", ["sleep_apnoea", "cpap_airline", "travel/insurance"]),
 ("m04", "Christmas shopping: what are Ruth, Maya and Iris each hoping for?", ["ruth_gift_hint", "maya_christmas_list", "iris_gift_guidance"]),
 ("m05", "Having both grandkids on Saturday night - any food dangers and bedtimes I should know?", ["theo_peanut_allergy", "grandkids_sleepover_rules"]),
 ("m06", "Lay out my regular weekly commitments: singing, the warehouse, school pickups and the reading helpers.", ["choir_rehearsals_moved", "foodbank/rota", "pickup_days_2026", "reading_volunteer"]),
 ("m07", "Roughly what comes into the house each month from all our pensions?", ["pension_uplift_2026", "finance/state_pension", "ruth_pension"]),
 ("m08", "Make me a renewals calendar for the car, house and travel insurance.", ["insurance_car_2026", "home_insurance", "travel/insurance"]),
 ("m09", "Cooking for Ruth and me at the weekend - what should I keep off both our plates?", ["diet/shellfish", "den_dislikes_food", "ruth_pescatarian", "ruth/dislikes_coriander"]),
 ("m10", "When are my two children's birthdays?", ["claire_birthday", "owen_birthday"]),
 ("m11", "Switzerland: how are we travelling, where do we stay, and which tickets or passes do we still need?", ["swiss_route", "zermatt_hotel", "swiss_half_fare", "switzerland_instead"]),
 ("m12", "Tell Brenda what's happening with my knee: when is the op and who's helping me afterwards?", ["knee_surgery_date", "knee_recovery_plan"]),
 ("m13", "January looks busy - which hospital appointments have I got?", ["cardiology_review", "knee_surgery_date"]),
 ("m14", "Ruth's got her guiding shift on Saturday - how's she getting there?", ["ruth_minster_guide", "ruth_not_driving"]),
 ("m15", "While we're in Portugal, who'll look after the greyhound and what should they feed him?", ["neighbour_brenda", "percy_food"]),
 ("m16", "How do I get to Leeds Bradford for the Porto flight - is driving myself sensible given the time?", ["night_driving", "porto_flight_change"]),
 ("m17", "Write a short bio for the concert programme: my career, my heritage-railway volunteering, and what I'm singing.", ["career/railway", "nymr_goathland_box", "choir_solo"]),
 ("m18", "Planning the February steam train day with the kids: route, car seat, and what to be careful of with Theo.", ["grandkids_halfterm_plan", "booster_seat", "theo_peanut_allergy"]),
 ("m19", "Seeing the doctor about cholesterol - who's my doctor now and what strength am I on?", ["gp_new_haxby", "statin_increase"]),
 ("m20", "Give me Claire's household at a glance: her work, Amir's work, and where each child goes to school.", ["claire_new_job", "family/son_in_law", "maya_secondary", "theo_school"]),
 ("m21", "The hospital wants my phone number and my emergency contact updated. What are they?", ["new_mobile", "emergency_contact_update"]),
 ("m22", "Anniversary dinner: which date is it and where should I book?", ["wedding_anniversary", "meltons_closed"]),
 ("m23", "Ruth's 70th: when exactly is it and what have we planned?", ["family/wife_birthday", "ruth_70th"]),
 ("m24", "Renewing travel cover - who's it with and which conditions must I declare?", ["travel/insurance", "health/afib", "health/knee", "sleep_apnoea"]),
 ("m25", "Visiting Geoff on Sunday: where is he now, visiting hours, and what treat could I bring?", ["geoff_care_home", "geoff_birthday", "geoff_visit_rules"]),
 ("m26", "Does Keith's visit clash with our Portugal trip? Give me both sets of dates.", ["keith_visit", "porto_flight_change"]),
 ("m27", "How much have I got put by altogether - investments, bonds and savings accounts?", ["isa_transfer", "finance/premium_bonds", "bank_savings"]),
 ("m28", "When do Owen's lot arrive for Christmas, and what can the baby have?", ["christmas_2026_plan", "iris_milk"]),
 ("m29", "Hospital admission form: home address, GP practice, and drug allergies.", ["house_move_2025", "gp_new_haxby", "health/allergy_penicillin"]),
 ("m30", "Plan my Wednesday: pickups in the afternoon and singing in the evening - what times?", ["pickup_days_2026", "choir_rehearsals_moved"]),
 ("m31", "Taking the grandkids birdwatching - where should we go, and what will keep Theo interested?", ["birding_patch_new", "theo_interests_now"]),
 ("m32", "Exhibition entry form: what is my layout modelling and where is it housed?", ["layout_rebuild", "railway_room"]),
 ("m33", "Council stuff: which day are the bins, and what band are we for council tax?", ["haxby_bins", "council_tax"]),
 ("m34", "If I'm in hospital Claire might need to deal with the utilities - who supplies our energy and internet?", ["energy_octopus", "internet_provider"]),
 ("m35", "What morning tablets do Ruth and I each take?", ["health/ruth_thyroid", "health/bp_meds", "apixaban_switch"]),
 ("m36", "Sunday plan: ring my brother in the morning then lunch somewhere nice - does the timing work, and where do we go for special meals now?", ["family/brother_keith", "meltons_closed"]),
 ("m37", "What's my routine for the knee until the operation - classes, exercises and gear for walks?", ["exercise_now", "knee_physio", "walking_poles"]),
 ("m38", "Both my siblings are abroad now, aren't they - where is each of them?", ["joan_spain", "family/brother_keith"]),
 ("m39", "New dentist wants a medical summary: heart, blood thinners, allergies.", ["health/afib", "apixaban_switch", "health/allergy_penicillin"]),
 ("m40", "Our day out to Pinhão from Porto - is the train sorted, and could we come back by boat?", ["porto_douro_booking", "ruth_seasick", "trip_2027_porto"]),
 ("m41", "How are my weight and blood sugar looking lately?", ["weight_latest", "bloods_oct_2026"]),
 ("m42", "Maya's birthday present: what size is she now and what is she into?", ["maya_sizes", "grandkids/maya", "maya_science"]),
 ("m43", "What have I got on with the Moors railway in March?", ["nymr_rules_refresher", "nymr_seasons"]),
 ("m44", "Helping Ruth with the NHS app - which phone has she got, and how do our repeat prescriptions arrive?", ["phones", "prescriptions_pharmacy"]),
 ("m45", "Getting ready for the operation: what goes in my bag and what happens with the anticoagulant beforehand?", ["preop_bag_list", "apixaban_surgery"]),
 ("m46", "Tax stuff: where does my extra income come from and what do I have to file?", ["consultancy_siemens", "self_assessment"]),
 ("m47", "I sat on my glasses and lost the charging case for my hearing aids - what do I need to replace?", ["glasses_new", "hearing_aids_rechargeable"]),
 ("m48", "Owen and Jess - where do they live now and are they married yet?", ["owen_move", "owen_wedding"]),
 ("m49", "Greyhound's annual check: which vet, what he eats, and how much walking he gets?", ["percy_vet", "percy_food", "new_dog"]),
 ("m50", "Christmas diary: when's the concert and when's the family get-together?", ["choir_concert_moved", "christmas_2026_plan"]),
 ("m51", "Concert day checklist: time, venue, what to wear and the piece I sing by myself.", ["choir_concert_moved", "choir_dress", "choir_solo"]),
 ("m52", "Paperwork drawer: who holds my will, and who are my attorneys?", ["will_updated", "finance/lpa"]),
]
for qid, text, ans in M:
    q(qid, "multi", [text], ans)

# ---------------------------------------------------------------- late additions: meaningful entries and their questions
e("layout_dcc_2026", "Decoder numbers for the new NER fleet: Deltic 'Royal Scots Grey' = 55, Class 40 D345 = 345, B1 'Springbok' = 61, J27 = 27", 60, "note")
e("funeral_plan", "Prepaid funeral plan with Co-op Funeralcare, taken out 2023; the plan document is in the grey filing box", 1100, "decision")
e("organ_donor", "Registered organ donor on the NHS register; the family know", 1300, "decision")
e("ruth_plaster_allergy", "Ruth reacts badly to sticking plasters - the adhesive brings her skin up in welts; use paper tape and gauze", 500, "fact")
e("percy_microchip", "Percy's microchip is registered with Petlog; updated it with the new mobile number", 55, "fact")
e("percy_insurance", "Percy insured with Petplan Covered for Life, £28 a month, £100 excess", 95, "fact")
e("santa_turns_2026", "Rostered for two NYMR Santa Special turns this year: Saturday 19 and Sunday 20 December", 12, "event")
e("christmas_cards_keith", "Christmas cards to Australia have to be posted by 5 December to arrive in time; Keith's address is in the blue notebook", 300, "note")
e("maya_phone", "Maya got her first phone (Claire's old iPhone) when she started secondary; her number is 07700 900745", 85, "fact")
e("iris_nursery", "Iris starts nursery in Canton in January 2027, three days a week, so Jess can go back full time", 30, "event")
e("owen_train_christmas", "Owen, Jess and Iris's train gets into Leeds at 16:10 on 23 December; I'm picking them up in the Toyota", 10, "decision")
e("haxby_bus", "From Haxby the number 1 bus runs into the city centre every 20 minutes; stop outside the Co-op on The Village", 500, "fact")
e("ruth_passport", "Ruth's passport runs out in August 2027 - fine for Porto, but needs renewing before Switzerland", 140, "fact")
e("club_running_session", "Invited the York club lot round for a running session in the loft on Saturday 9 January, 2pm", 9, "event")

q("u52", "update", ["Remind me of the DCC addresses for the locos on the layout."], ["layout_dcc_2026"], ["layout_dcc_address_list"])
q("d33", "direct", ["What's my full name, and what does the family call me?"], ["profile/name"])
q("d34", "direct", ["Which railcards have I got and when do they renew?"], ["travel/rail_card"])
q("d35", "direct", ["When is the club coming round for the running session?"], ["club_running_session"])
q("d36", "direct", ["What's Maya's phone number?"], ["maya_phone"])
q("p43", "paraphrase", ["What did my wife do for a living before she retired?"], ["family/wife"])
q("p44", "paraphrase", ["Which building society do Ruth and I bank with together?"], ["finance/bank"])
q("p45", "paraphrase", ["If the laptop dies, are all the family pictures safe somewhere?"], ["photo_backup"])
q("p46", "paraphrase", ["Owen says we should fly to Glasgow for Pauline's do - what would I normally rather do?"], ["prefers_trains"])
q("p47", "paraphrase", ["Have I put anything aside to cover the cost of my send-off?"], ["funeral_plan"])
q("p48", "paraphrase", ["Ruth's caught her finger on the grater - how should I dress it?"], ["ruth_plaster_allergy"])
q("p49", "paraphrase", ["If Percy ever slipped his collar and got lost, would the rescue centre be able to reach me?"], ["percy_microchip"])
q("p50", "paraphrase", ["Is it too late to send something to my brother for Christmas?"], ["christmas_cards_keith"])
q("r62", "drift", ["Lovely crisp morning.", "Percy did his zoomies on the field.", "Remind me when we lost Bramble, and how old was the old boy?"], ["bramble_died"])
q("r63", "drift", ["The Santa trains look magical this year.", "Loads of families booked already.", "Am I working on the railway any days before Christmas?"], ["santa_turns_2026"])
q("r64", "drift", ["Had a long chat with Colin at Grosmont.", "His wife's not well.", "What's Percy's insurance excess again?"], ["percy_insurance"])
q("f23", "followup", ["Owen sent a photo of Iris in her new coat.", "When does she start nursery?"], ["iris_nursery"])
q("f24", "followup", ["Theo's got his birthday in June.", "What year was he born again?"], ["grandkids/theo"])
q("f25", "followup", ["Claire rang - her clinic's been mad busy.", "Which part of Leeds is she in again?"], ["family/daughter"])
q("f26", "followup", ["Owen sent me a video of Iris walking.", "What does he do for work, and who's his other half?"], ["family/son", "owen_job"])
q("m53", "multi", ["Christmas logistics: when do I collect Owen's lot and where are we all spending the day?"], ["owen_train_christmas", "christmas_2026_plan"])
q("m54", "multi", ["Are both our passports OK for Porto and for Switzerland?"], ["passport_renewed", "ruth_passport"])
q("m55", "multi", ["After the knee op, how will I get into town on my own while I'm not allowed to drive, and will it cost me anything?"], ["knee_recovery_plan", "haxby_bus", "bus_pass"])
q("m56", "multi", ["Percy's paperwork: who's he insured with and is his chip up to date?"], ["percy_insurance", "percy_microchip"])

e("ruth_tea", "Ruth drinks Earl Grey, weak, with a slice of lemon - never milk", 700, "preference")
e("haxby_library", "Haxby Explore library: loans are for three weeks, renew online; library card is on the car keyring", 300, "fact")
e("theo_collection_word", "Moortown Primary's collection password for Theo is 'Gresley' - the office asks for it if I'm not on the usual list", 80, "note")
e("geoff_visit_rules", "Ashfield care home: sign in at reception, no alcohol for residents on his ward, and Geoff tires after an hour", 38, "note")
e("jess_coeliac", "Jess is coeliac - needs gluten-free everything and her own toaster bags; check oats too", 380, "fact")
e("amir_halal", "Amir eats halal, no pork; at family meals we buy halal chicken or do fish", 900, "preference")
q("p51", "paraphrase", ["I'm putting the kettle on - how does Ruth take her cuppa?"], ["ruth_tea"])
q("d37", "direct", ["How long are library loans at Haxby, and where's my library card?"], ["haxby_library"])
q("p52", "paraphrase", ["The office at Theo's school wants a word from me before they'll hand him over. What is it?"], ["theo_collection_word"])
q("p53", "paraphrase", ["Doing sandwiches for when Owen's family arrive - anything special I need to think about for his wife?"], ["jess_coeliac"])
q("m57", "multi", ["Christmas dinner with everyone - what dietary needs do I have to cater for across the grown-ups and the kids?"], ["ruth_pescatarian", "jess_coeliac", "amir_halal", "theo_peanut_allergy"])
q("f27", "followup", ["I'm taking Geoff some bits on Sunday.", "Are there any rules about what I can bring in?"], ["geoff_visit_rules"])

# ---------------------------------------------------------------- hand-written distractors (same person, close in topic)
HD = [
 ("family/cousin_graham", "Cousin Graham Whitcombe, retired fire officer in Stockton; sees him at funerals and the odd Boro match", 900, "fact"),
 ("family/pauline", "Ruth's sister Pauline lives in Knaresborough, widowed, comes for Sunday lunch about once a month", 700, "fact"),
 ("family/pauline_birthday", "Pauline's birthday is 11 November", 700, "fact"),
 ("family/nephew_daniel", "Nephew Daniel (Joan's son) is a welder in Teesside, two boys", 800, "fact"),
 ("family/niece_sarah", "Niece Sarah (Joan's daughter) runs a bar in Torrevieja", 310, "fact"),
 ("family/uncle_fred", "Uncle Fred died at 94 in October; funeral at Darlington crematorium", 45, "event"),
 ("family/keith_wife", "Keith's wife is Marianne; their kids Josh and Ella are both in Perth", 900, "fact"),
 ("family/dad", "Dad was a fireman on steam at Darlington shed, later a driver; died 1999", 1500, "fact"),
 ("family/mum", "Mum, Edna, was a school cook; died 2011", 1500, "fact"),
 ("family/ruth_parents", "Ruth's parents both gone; her dad was a Rowntree's chemist", 1400, "fact"),
 ("family/godson", "Godson Ben (Geoff's son) is a train driver for LNER out of York", 600, "fact"),
 ("family/amir_brother", "Amir's brother Karim is a pharmacist in Salford", 600, "fact"),
 ("family/jess_parents", "Jess's parents Gareth and Bethan Pryce live in Swansea; Gareth is a retired lecturer", 300, "fact"),
 ("family/claire_wedding", "Claire and Amir married in 2013 at the Merchant Adventurers' Hall", 1500, "event"),
 ("family/reunion_2024", "Whitcombe family reunion at Preston Park, Stockton in August 2024 - 31 people came", 840, "event"),
 ("health/dermatology", "Had a seborrhoeic keratosis on the back checked by dermatology in 2024 - benign, no follow-up", 800, "event"),
 ("health/podiatrist", "Podiatrist Lynne at Haxby does the toenails every 8 weeks, £32", 120, "fact"),
 ("health/audiology", "Audiology at York Hospital fitted the hearing aids; review in 12 months", 90, "event"),
 ("health/eye_clinic", "Eye clinic said the left-eye cataract isn't bad enough to operate yet; recheck in a year", 75, "event"),
 ("health/colonoscopy_2022", "Bowel screening kit came back normal in 2022 and again 2024", 700, "event"),
 ("health/shingles_jab", "Had the shingles vaccine (Shingrix) two doses in 2024", 750, "event"),
 ("health/old_cardiologist_letter", "Clinic letter 2022: AF rate-controlled, CHA2DS2-VASc score 2, continue anticoagulation", 1450, "note"),
 ("health/sleep_study", "Sleep study at York in 2023 showed moderate apnoea, AHI 24", 1100, "event"),
 ("health/ruth_eyes", "Ruth has monthly eye injections at the macular clinic, Tuesday mornings", 250, "fact"),
 ("health/ruth_bp", "Ruth's blood pressure is fine; she's on no heart medication", 600, "fact"),
 ("health/back_2023", "Pulled a back muscle lifting sleepers on the layout in 2023 - sorted by physio in four weeks", 1100, "event"),
 ("health/ecg_2021", "First AF episode logged on an ECG at York A&E, 14 June 2021", 1950, "event"),
 ("health/knee_injection", "Had a steroid injection in the left knee in 2024; helped for about three months", 700, "event"),
 ("health/covid_2022", "Had Covid in April 2022, mild, lost taste for a fortnight", 1650, "event"),
 ("trip_2019_whitby", "Whitby week in 2019 at a cottage on Henrietta Street - that's where the mussels incident happened", 2600, "event"),
 ("trip_2022_lakes", "Lake District, Keswick, September 2022 - stayed at the Lairbeck Hotel, rode the Ravenglass & Eskdale", 1550, "event"),
 ("trip_2023_edinburgh", "Edinburgh for the Tattoo, August 2023; travelled LNER first class on an advance ticket", 1200, "event"),
 ("trip_2018_belgium", "Bruges and Ghent by Eurostar in 2018 - Ruth loved the lace museum", 2900, "event"),
 ("trip_2024_settle_carlisle", "Settle-Carlisle steam special 'The Fellsman' with Geoff in July 2024", 870, "event"),
 ("trip_2021_isle_of_man", "Isle of Man for the steam railway, 2021 - Ruth was sick on the ferry", 1900, "event"),
 ("trip_2025_cardiff", "Went down to Cardiff for Iris's naming day in July 2025, stayed at the Premier Inn Cardiff Bay", 500, "event"),
 ("trip_2024_scotland", "West Highland Line Glasgow to Mallaig in May 2024; Jacobite steam train back from Mallaig", 940, "event"),
 ("trip_2025_norfolk", "Week in Wells-next-the-Sea, October 2025, birding at Titchwell and Cley", 420, "event"),
 ("trip_2026_harrogate", "Two nights in Harrogate in March 2026 for Ruth's friend's 70th", 270, "event"),
 ("trip_idea_canada", "One day would love to do the Rocky Mountaineer - Ruth says too expensive", 500, "note"),
 ("trip_idea_japan", "Owen suggested Japan to ride the Shinkansen; Den thinks the flight is too long for his knee", 300, "note"),
 ("trip_2026_spring_porto_research", "Read that Porto São Bento station has amazing azulejo tiles - must see", 140, "note"),
 ("porto_restaurants_list", "Restaurants people recommended in Porto: Cantinho do Avillez, Taberna dos Mercadores, Café Santiago for francesinha", 100, "note"),
 ("porto_weather", "Porto in April averages 19C, can be rainy - pack a light waterproof", 90, "note"),
 ("lisbon_maybe", "Considered adding two nights in Lisbon to the Porto trip but decided against it", 110, "decision"),
 ("glacier_express_history", "Glacier Express first ran 1930; slowest express train in the world, about 8 hours", 30, "note"),
 ("norway_research_2025", "Read up on the Flåm Railway - 20km, 1 in 18 gradient", 210, "note"),
 ("old_car_2009", "Before the Skoda had a Volvo V70 for ten years", 2000, "fact"),
 ("ruth_old_car", "Ruth's old Nissan Micra sold to a neighbour when she stopped driving", 290, "event"),
 ("nymr_first_turn", "First ever turn as a qualified signalman was 4 May 2022", 1650, "event"),
 ("nymr_friends", "NYMR box friends: Colin (Grosmont), Sue (New Bridge), Ray (Pickering)", 500, "fact"),
 ("nymr_gala_2025", "Autumn steam gala 2025: 7 locos, worked the gala timetable two days", 420, "event"),
 ("nymr_membership", "NYMR membership number 48821, renews in January", 500, "fact"),
 ("nymr_santa_2025", "Helped as a Santa Special steward in December 2025", 360, "event"),
 ("foodbank_christmas_2025", "Foodbank Christmas hamper packing day raised a record 1,200 hampers in 2025", 350, "event"),
 ("foodbank_training", "Did the foodbank's food safety and manual handling training in 2024", 800, "event"),
 ("choir_history", "Joined the Railway Institute choir in 2019, just after retiring", 2500, "fact"),
 ("choir_tour_2025", "Choir tour to Cornwall in 2025 - sang at Truro Cathedral", 480, "event"),
 ("choir_conductor", "Choir musical director is Andrew Pask; accompanist Hilary", 500, "fact"),
 ("layout_history", "Started the layout in 2014 with a Hornby train set from Owen's childhood", 1400, "fact"),
 ("layout_club", "Member of York Model Railway Society; club nights Thursdays", 600, "fact"),
 ("layout_exhibition_2025", "Showed Thornbury Junction at the York show Easter 2025 - it won nothing but got lots of compliments", 600, "event"),
 ("model_wishlist", "Wishlist: Accurascale Deltic 'Alycidon', Bachmann B1 'Springbok', Peco code 75 diamond crossing", 60, "note"),
 ("birding_list_2025", "Year list 2025 reached 178 species", 330, "fact"),
 ("birding_life_tick", "Life tick: Pallas's warbler at Spurn, October 2024", 770, "event"),
 ("birding_club", "Member of York Ornithological Club; indoor meetings first Friday evening of the month", 600, "fact"),
 ("bird_feeders", "Garden feeders: sunflower hearts, suet balls, nyjer for the goldfinches", 200, "note"),
 ("allotment_shed", "The allotment shed at plot 7 needs felt on the roof", 120, "note"),
 ("allotment_neighbour", "Allotment neighbour Tony grows giant leeks and shares his manure", 200, "fact"),
 ("garden_bungalow", "Bungalow garden: small lawn, raised beds, an apple tree (Bramley)", 500, "fact"),
 ("house_sale_2025", "Sold Beckfield Lane for £312,000; bought the bungalow for £295,000", 590, "event"),
 ("house_improvements", "Had a wet room fitted at the bungalow in summer 2025 ahead of the knee op", 480, "event"),
 ("loft_conversion", "Loft room insulated and boarded by Haxby Lofts in spring 2025, £14,000", 560, "event"),
 ("solar_panels", "Thinking about solar panels - quote from Eco Solar £7,800", 60, "note"),
 ("tv_subscriptions", "Netflix (basic with adverts) and BritBox", 300, "fact"),
 ("den_politics_avoid", "Prefers not to talk politics at family gatherings - Amir and Owen disagree loudly", 400, "preference"),
 ("den_football", "Supports Darlington FC since boyhood; also goes to York City occasionally", 1200, "preference"),
 ("den_cricket", "Loves Test cricket on the radio, TMS", 1000, "preference"),
 ("ruth_church", "Ruth goes to St Mary's Haxby on Sundays; Den goes at Christmas and Easter", 400, "fact"),
 ("ruth_garden", "Ruth looks after the roses and the herb pots", 400, "fact"),
 ("ruth_friend_jean", "Ruth's best friend Jean Armitage, also a retired teacher, lives in Clifton", 900, "fact"),
 ("ruth_teaching_award", "Ruth got a long-service award from the council in 2015", 1500, "event"),
 ("ruth_sleep", "Ruth complains the CPAP mask hisses", 300, "note"),
 ("maya_school_play", "Maya played the narrator in the Year 6 play in July 2026", 140, "event"),
 ("maya_sats", "Maya did well in her SATs, above expected in maths and reading", 180, "event"),
 ("maya_swimming_badge", "Maya got her 1500m swimming badge in October", 50, "event"),
 ("theo_school", "Theo is in Year 3 at Moortown Primary, teacher Mr Ellis", 80, "fact"),
 ("theo_football", "Theo started Saturday football with Moortown Juniors U8s", 70, "event"),
 ("theo_tooth", "Theo lost his first front tooth in November", 20, "event"),
 ("theo_dino_museum", "Took Theo to the Yorkshire Museum dinosaur gallery in 2024", 700, "event"),
 ("iris_first_steps", "Iris took her first steps in November - video from Jess", 25, "event"),
 ("iris_words", "Iris says 'dada', 'duck' and something that might be 'grandad'", 20, "note"),
 ("grandkids_savings", "Puts £20 a month into a Junior ISA for each grandchild", 300, "decision"),
 ("claire_car", "Claire drives a white VW Touran", 500, "fact"),
 ("claire_clinic_opening", "Went to the opening of Claire's clinic - Amir gave a speech", 150, "event"),
 ("owen_job", "Owen is now a test lead at a fintech in Cardiff, mostly working from home", 160, "fact"),
 ("owen_hobby", "Owen plays five-a-side on Wednesdays and brews his own beer", 500, "fact"),
 ("owen_flat_bristol", "Helped Owen paint the Bristol flat in 2023", 1100, "event"),
 ("geoff_wife", "Geoff's wife Maureen visits him every day; she doesn't drive", 35, "fact"),
 ("geoff_history", "Worked with Geoff at Doncaster PSB in the 1980s; he taught me the block instruments", 1000, "fact"),
 ("friend_alan", "Alan Burke, ex-Doncaster signaller, rings now and then; lives in Thorne", 400, "fact"),
 ("friend_colin", "Colin from the NYMR gives lifts to Grosmont if Den can't drive", 100, "fact"),
 ("friend_brian", "Brian from choir - tenor, retired postman, always first at the bar", 500, "fact"),
 ("neighbour_other", "Neighbours at number 4, the Ahmeds, have two young boys and a cockapoo", 300, "fact"),
 ("bank_savings", "Easy-access savings with Chase UK at 4.1%, about £9,000", 150, "fact"),
 ("old_isa_performance", "ISA was up about 8% in 2024", 600, "note"),
 ("ruth_isa", "Ruth has a cash ISA with Nationwide, about £20k", 400, "fact"),
 ("charity_giving", "Monthly direct debits: £10 to the RNLI, £8 to the British Heart Foundation, £5 to the Greyhound Trust", 90, "decision"),
 ("tv_licence", "TV licence paid annually in February by card", 400, "fact"),
 ("water_bill", "Yorkshire Water bill on a meter, about £38 a month", 300, "fact"),
 ("car_service", "Toyota serviced at Lookers York; first service done October 2026", 50, "event"),
 ("car_tyres", "Put Michelin CrossClimate tyres on the Skoda in 2024", 750, "event"),
 ("parking_permit", "Has a residents' permit for Haxby village car park", 300, "fact"),
 ("phone_old_sim", "Old EE SIM still in the drawer in case", 55, "note"),
 ("email_address", "Uses Gmail for everything; Ruth uses BT Mail", 600, "fact"),
 ("ipad", "Has an iPad 9th gen for reading and Zoom calls with Keith", 400, "fact"),
 ("den_watch", "Wears the Seiko watch Ruth gave him on retirement", 1400, "fact"),
 ("radio", "Listens to Radio 4 in the mornings; Test Match Special in summer", 800, "preference"),
 ("den_tea", "At home drinks Yorkshire Tea, milk no sugar", 800, "preference"),
 ("den_breakfast", "Breakfast: porridge with blueberries since the HbA1c scare", 300, "preference"),
 ("den_beer_limit", "Trying to stick to 10 units a week", 200, "decision"),
 ("christmas_2025", "Christmas 2025 was at ours, first in the bungalow; Iris's first Christmas", 340, "event"),
 ("christmas_2024", "Christmas 2024 at Owen's in Bristol; drove down on the 23rd", 710, "event"),
 ("easter_2026", "Easter 2026 egg hunt at Claire's - Theo found the most", 240, "event"),
 ("bonfire_2026", "Took the kids to the Haxby bonfire; Theo hated the bangs", 27, "event"),
 ("halloween_2026", "Theo went trick or treating as a Creeper, Maya too old for it apparently", 31, "event"),
]
for k, v, d, t in HD:
    e(k, v, d, t)

# ---------------------------------------------------------------- generated distractors (deterministic)
GEN_START = len(ENTRIES)
import datetime
REF = datetime.date(2026, 12, 1)
R = random.Random(20261201)

def ddate(days):
    return REF - datetime.timedelta(days=int(days))

def slug(s):
    return re.sub(r"[^a-z0-9]+", "_", s.lower()).strip("_")[:28]

def fmt(d):
    return "%d %s %d" % (d.day, d.strftime("%B"), d.year)

def rdays(lo, hi):
    return round(R.uniform(lo, hi), 1)

BIRDS = ["marsh harrier", "barn owl", "kingfisher", "green sandpiper", "whinchat", "stonechat", "redstart", "spotted flycatcher",
         "yellowhammer", "tree pipit", "nightjar", "woodlark", "curlew", "lapwing", "golden plover", "whooper swan", "pintail",
         "wigeon", "teal", "little egret", "great white egret", "bittern", "cuckoo", "hobby", "red kite", "buzzard", "peregrine",
         "short-eared owl", "brambling", "siskin", "redpoll", "crossbill", "waxwing", "fieldfare", "redwing", "goldcrest",
         "treecreeper", "nuthatch", "grey wagtail", "dipper", "puffin", "gannet", "kittiwake", "whimbrel", "ruff", "avocet"]
OLD_PLACES = ["Wheldrake Ings", "Askham Bog", "Fairburn Ings", "Bempton Cliffs", "Spurn Point", "Blacktoft Sands", "Nosterfield", "the Acomb garden", "Rowntree Park"]
NEW_PLACES = ["Strensall Common", "the Foss path at Haxby", "Bempton Cliffs", "Spurn Point", "Filey Brigg", "Wheldrake Ings", "the bungalow garden", "Forge Valley", "North Cave Wetlands"]
BIRD_EXTRA = ["", ", distant views only", ", with Ruth", " - got a record shot on the phone", " in steady rain", ", logged on BirdTrack",
              ", flushed by a dog walker after a minute", ". Three other birders there, one from Hull who'd driven over specially after seeing it on the WhatsApp group",
              ", heard first then seen", " - best views I've ever had"]
for i in range(130):
    days = rdays(2, 2200)
    d = ddate(days)
    sp = R.choice(BIRDS)
    place = R.choice(OLD_PLACES if days > 200 else NEW_PLACES)
    n = R.choice(["1", "2", "3", "a pair of", "5", "about 20", "12"])
    e("birding/log_%s_%s" % (d.strftime("%Y_%m_%d"), slug(sp)), "%s: %s %s at %s%s" % (fmt(d), n, sp, place, R.choice(BIRD_EXTRA)), days, "event")

CROPS = [("broad beans", "Aquadulce"), ("runner beans", "Scarlet Emperor"), ("potatoes", "Charlotte"), ("potatoes", "Pink Fir Apple"),
         ("onion sets", "Sturon"), ("garlic", "Elephant"), ("leeks", "Musselburgh"), ("carrots", "Autumn King"), ("beetroot", "Boltardy"),
         ("parsnips", "Gladiator"), ("courgettes", "Defender"), ("sweetcorn", "Swift"), ("kale", "Nero di Toscana"), ("rhubarb", "Timperley Early"),
         ("raspberries", "Autumn Bliss"), ("peas", "Hurst Green Shaft"), ("spinach", "Medania"), ("squash", "Crown Prince")]
ALLOT_T = [
    "Sowed {crop} ({var}) in bed {n}",
    "Harvested {qty} of {crop} ({var})",
    "Dug over bed {n} and spread manure",
    "Pigeons had the tops off the {crop}; put the netting back up",
    "Slug damage on the {crop} again - tried wool pellets",
    "Gave a carrier bag of {crop} to Brenda and the Ahmeds",
    "Weeded bed {n}; the bindweed is winning",
    "Watered everything twice, dry week; water butts nearly empty",
    "{crop} ({var}) doing well this year, best crop for ages. Tony reckons it's the manure he gave me in the spring, and he might be right",
    "Lifted the last of the {crop}; bed {n} ready for green manure",
]
for i in range(100):
    days = rdays(3, 2000)
    d = ddate(days)
    crop, var = R.choice(CROPS)
    site = "Scarcroft plot 14" if days > 280 else "plot 7"
    txt = R.choice(ALLOT_T).format(crop=crop, var=var, n=R.randint(1, 6), qty=R.choice(["2kg", "a trug", "a bucket", "4kg", "a big basket"]))
    e("allotment/log_%s" % d.strftime("%Y_%m_%d"), "%s (%s): %s" % (fmt(d), site, txt), days, "event")

SR_ITEMS = ["Hornby Merchant Navy 'Clan Line'", "Bachmann Bulleid coaches (set of 3)", "Hornby 4-SUB unit", "Heljan Class 33", "Bachmann M7 tank",
            "Peco SR concrete platform kit", "Ratio SR signal box kit", "Dapol Q1 0-6-0", "Hornby Schools class 'Repton'", "Kernow O2 tank"]
NE_ITEMS = ["Accurascale Class 55 Deltic 'Royal Scots Grey'", "Bachmann Class 40 D345", "Hornby B1 'Springbok'", "Bachmann 16t mineral wagons (pack of 4)",
            "Peco NER signal box kit", "Heljan Class 31", "Bachmann Mk1 maroon coaches", "Hornby K1 2-6-0", "Sonic J27", "Dapol Class 22"]
SHOPS = ["Rails of Sheffield", "Hattons (before they closed)", "eBay", "the York show", "Monk Bar Models", "Kernow Models", "the club swapmeet"]
LAYOUT_WORK = ["Ballasted {n} feet of the {sec}", "Fitted a Zimo sound decoder to the {loco}", "Rewired the {sec} point motors (Cobalt)",
               "Weathered a rake of wagons with the airbrush", "Built {n} trees from sea foam for the {sec}", "Fixed the derailment spot on the {sec} curve",
               "Running session with Owen on video call - he drove the {loco}", "Cleaned the track with the CMX wagon after a dusty month",
               "Made a new control panel for the {sec} from a Peco mimic diagram; took most of the weekend but worth it, no more guessing which point is which"]
SECS = ["fiddle yard", "station throat", "branch line", "goods yard", "engine shed", "viaduct scene", "down loop"]
for i in range(90):
    days = rdays(5, 2000)
    d = ddate(days)
    items = SR_ITEMS if days > 130 else NE_ITEMS
    if R.random() < 0.5:
        it = R.choice(items)
        e("layout/purchase_%s_%s" % (d.strftime("%Y_%m_%d"), slug(it)), "Bought %s from %s for £%d" % (it, R.choice(SHOPS), R.randint(12, 260)), days, "event")
    else:
        txt = R.choice(LAYOUT_WORK).format(n=R.randint(2, 12), sec=R.choice(SECS), loco=R.choice(items))
        e("layout/work_%s" % d.strftime("%Y_%m_%d"), "%s: %s" % (fmt(d), txt), days, "event")

NYMR_EV = ["quiet turn, every train to time", "dining train ran 20 minutes late after a hot axle box", "sheep on the line near {p}, had to caution the driver",
           "visiting loco {l} on the diagrams", "trainee {n} shadowed all day - doing well", "lineside fire near {p}, fire brigade called",
           "school party visited the box, explained the lever frame", "token machine failure, worked by pilotman for two hours",
           "very busy bank holiday, eight trains each way", "heavy rain, signal wire slack, adjusted with the tensioner"]
for i in range(75):
    while True:
        days = rdays(10, 1600)
        d = ddate(days)
        if 3 <= d.month <= 11 and d >= datetime.date(2022, 5, 4):
            break
    txt = R.choice(NYMR_EV).format(p=R.choice(["Newtondale", "Darnholm", "Beck Hole", "Farwath", "Raindale"]),
                                     l=R.choice(["'Sir Nigel Gresley'", "LNER K4 'The Great Marquess'", "Q6 63395", "Black Five 44806", "Class 25 D7628"]),
                                     n=R.choice(["Hannah", "Stuart", "Priya", "Mick", "Jenny"]))
    e("nymr/turn_%s" % d.strftime("%Y_%m_%d"), "NYMR turn %s: %s" % (fmt(d), txt), days, "event")

PIECES = ["'Gwahoddiad'", "'Myfanwy'", "'Bring Him Home'", "'Deus Salutis'", "'The Rose'", "'Calon Lân'", "'Anthem' from Chess", "'Morte Criste'", "'Jerusalem'", "'Hallelujah' (Cohen)"]
CHOIR_NOTE = ["basses too loud again", "Andrew pleased for once", "need to learn the words properly", "new member in the tenors", "sight-reading a new arrangement",
              "sectional with just the basses", "ran the whole programme through, ragged in places", "Hilary away, rehearsed unaccompanied"]
for i in range(35):
    days = rdays(5, 2400)
    d = ddate(days)
    e("choir/rehearsal_%s" % d.strftime("%Y_%m_%d"), "Choir rehearsal %s: worked on %s; %s" % (fmt(d), R.choice(PIECES), R.choice(CHOIR_NOTE)), days, "note")
VENUES = ["York Minster nave", "St Helen's Stonegate", "Malton Methodist church", "Harrogate Royal Hall", "Scarborough Spa", "the National Railway Museum", "Beverley Minster", "Selby Abbey"]
for i in range(15):
    days = rdays(60, 2400)
    d = ddate(days)
    v = R.choice(VENUES)
    e("choir/concert_%s_%s" % (d.strftime("%Y_%m"), slug(v)), "Choir concert at %s on %s - %s" % (v, fmt(d), R.choice(["raised £1,100 for the hospice", "full house", "small crowd but warm", "Ruth and Pauline came", "Claire brought the kids"])), days, "event")

ROUTES = ["round Haxby and Wigginton", "along the Foss to Huntington", "Strensall Common loop", "the Ouse to Bishopthorpe", "Dalby Forest, Staindale lake",
          "Hole of Horcum", "Sutton Bank and Whitestone Cliff", "Malham Cove (the easy way)", "the York city walls", "Goathland to Grosmont rail trail",
          "Rowntree Park and the Millennium Bridge", "Knaresborough riverside", "Castle Howard estate", "Robin Hood's Bay to Ravenscar"]
for i in range(70):
    days = rdays(1, 2300)
    d = ddate(days)
    if days < 95:
        who = R.choice([" with Percy", " with Percy and Ruth", " with Percy"])
    elif days > 620:
        who = R.choice([" with Bramble", " with Ruth and Bramble", " with the walking group"])
    else:
        who = R.choice([" with Ruth", " with the walking group", " on my own", " with Colin"])
    note = R.choice(["", "; knee sore afterwards", "; coffee at the end", "; muddy", "; saw a hare", "; lovely autumn colour", "; cut short by rain",
                     "; got a bit lost and had to ask a farmer the way back, who it turned out knew Geoff from the old days"])
    r = R.choice(ROUTES)
    e("walk/%s_%s" % (d.strftime("%Y_%m_%d"), slug(r)), "Walked %s%s, %.1f miles%s" % (r, who, R.choice([2, 3, 3.5, 4, 5, 6.5, 8]), note), days, "event")

MEAT_DISHES = ["steak and ale pie", "shepherd's pie", "toad in the hole", "chicken tikka masala", "lamb hotpot", "bacon sandwiches", "beef stew and dumplings"]
VEG_DISHES = ["mushroom risotto", "cauliflower cheese", "vegetable lasagne", "lentil dal", "halloumi traybake", "leek and potato soup", "spinach and ricotta cannelloni"]
for i in range(50):
    days = rdays(1, 1500)
    d = ddate(days)
    if R.random() < 0.5:
        dish, who = R.choice(VEG_DISHES), R.choice(["Ruth and me", "Ruth, me and Pauline", "the family"])
    else:
        dish, who = R.choice(MEAT_DISHES), R.choice(["myself while Ruth was at Jean's", "me and Owen", "Geoff and me"])
    e("meal/%s" % d.strftime("%Y_%m_%d"), "Cooked %s for %s - %s" % (dish, who, R.choice(["went down well", "a bit salty", "too much left over, froze two portions", "will do again", "Ruth's recipe, not as good as hers"])), days, "event")

BOOKS = [("The Signalman", "Charles Dickens"), ("Fire on the Line", "Jay Clancy"), ("Slow Train to Switzerland", "Diccon Bewes"), ("The Railway Children", "E. Nesbit"),
         ("Wolf Hall", "Hilary Mantel"), ("H is for Hawk", "Helen Macdonald"), ("The Thursday Murder Club", "Richard Osman"), ("Red Arrows", "various"),
         ("The Salt Path", "Raynor Winn"), ("Fall of Giants", "Ken Follett"), ("Birds Britannia", "Stephen Moss"), ("Blood on the Tracks", "Martin Edwards"),
         ("Murder on the Orient Express", "Agatha Christie"), ("The Wonky Donkey", "Craig Smith - read to Theo"), ("Beeching: the inside track", "Robin Jones"),
         ("Lake District mountain walks", "Wainwright"), ("Shuggie Bain", "Douglas Stuart"), ("The Go-Between", "L.P. Hartley"),
         ("Pied Piper", "Nevil Shute"), ("Notes from a Small Island", "Bill Bryson")]
for b, a in BOOKS:
    days = rdays(30, 2000)
    e("reading/%s" % slug(b), "Read '%s' by %s - %s" % (b, a, R.choice(["couldn't put it down", "bit slow", "Ruth recommended it", "from the Haxby library", "re-read, still good", "gave up halfway"])), days, "event")
SHOWS = ["Great British Railway Journeys", "Vera", "Springwatch", "Gardeners' World", "The Repair Shop", "Death in Paradise", "Strictly", "Slow Horses",
         "Mastermind", "All Creatures Great and Small", "Line of Duty", "The Traitors", "Antiques Roadshow", "Winterwatch", "Race Across the World"]
for i in range(30):
    days = rdays(1, 1200)
    d = ddate(days)
    s = R.choice(SHOWS)
    e("tv/%s_%s" % (d.strftime("%Y_%m_%d"), slug(s)), "Watched %s with Ruth (%s)" % (s, R.choice(["iPlayer", "live", "recorded"])), days, "event")

ANECDOTES = [
 "Maya beat me at chess for the first time and was unbearable about it", "Theo asked why trains don't have steering wheels",
 "Maya drew a picture of Biscuit and it's on our fridge", "Theo built the whole of York station out of Lego - sort of",
 "Maya asked me to help with a school project on the Rowntree's factory", "Theo fell asleep on the way back from Pickering",
 "Maya wants to try the Pony Club camp next summer", "Theo told his teacher grandad drives trains (I don't)",
 "Maya got told off for texting at tea; Claire took her phone", "Theo insisted on wearing his wellies to the cinema",
 "Took the kids to the NRM, Theo more interested in the gift shop", "Maya made pancakes at ours all by herself",
 "Theo's wobbly tooth saga lasted a fortnight", "Maya cried at the end of Black Beauty", "Theo wants a pet snake; Claire said no",
 "Maya has a best friend called Ruby from riding", "Theo kept calling Percy 'Horse dog'", "Maya taught Ruth how to use Spotify",
 "Theo ate three fish fingers and nothing green", "Maya and I did a Parkrun junior event; she left me for dust",
 "Theo asked if I was alive when dinosaurs were", "Maya's joined the school netball team", "Theo's class assembly was about space; he was Mars",
 "Video call with Iris - she just wanted to eat the phone", "Iris crawled after Percy around the lounge", "Jess sent a photo of Iris in a tiny Wales rugby shirt",
 "Maya said secondary school dinners are 'inedible'", "Theo got a certificate for kindness", "Maya wants her ears pierced; Claire says at 12",
 "Theo and I watched the bin lorry for twenty minutes, a highlight of his week", "Maya asked about Grandma's teaching days for a project",
 "Theo's Minecraft world has a railway in it - there's hope", "Took both kids to Pizza Express; checked allergens with the waiter as usual",
 "Maya rode Biscuit over her first proper jump", "Theo hid my glasses in the dishwasher", "Maya finished all of the Harry Potter books",
 "Theo got a splinter and I had to do surgery with tweezers", "Maya was Mary in the nativity years ago and still brings it up",
 "Theo wants to be a YouTuber, apparently", "Maya helped at the foodbank with me for her Brownies badge"]
for a in ANECDOTES:
    if "Percy" in a:
        days = rdays(5, 95)
    elif "secondary" in a:
        days = rdays(5, 85)
    elif "Iris" in a:
        days = rdays(5, 600)
    else:
        days = rdays(5, 1400)
    d = ddate(days)
    e("grandkids/note_%s" % d.strftime("%Y_%m_%d"), a, days, "note")

HOUSE = ["Gutters cleared by the window cleaner, £40", "Replaced the kitchen tap washer", "Bought a new Bosch lawnmower", "Smoke alarm battery changed",
         "Dishwasher repaired by Lee Appliance, £85", "Painted the back fence in Ronseal Harvest Gold", "New doormat from Dunelm", "Chimney sweep booked",
         "Fixed the squeaky loft hatch", "Bought a dehumidifier for the garage", "Had the windows cleaned", "Ordered a new garden hose reel",
         "Replaced the bathroom extractor fan", "Changed the bulbs in the hall to LEDs", "Rehung the garage door spring", "Cleared out the airing cupboard for charity",
         "Took three boxes of Ruth's old school books to the tip", "Bought a new kettle (Russell Hobbs) after the old one died",
         "Plumber fixed the dripping overflow", "Cut back the leylandii, filled the green bin twice", "Pressure-washed the patio",
         "Unblocked the kitchen sink with the plunger", "Bought a wooden bird table for the garden", "Got the carpets cleaned",
         "Fitted a grab rail by the back step", "New battery for the doorbell", "Bought a storage rack for the layout stock boxes",
         "Put the winter duvet on", "Repaired the garden gate latch", "Had the washing machine drum bearing replaced, £120",
         "Bought a heated clothes airer", "Sorted the spice rack - half of it out of date", "Bought a cordless drill from Screwfix",
         "Had a new thermostat fitted (Hive)", "Moved the freezer into the garage", "Re-grouted the shower", "Bought two new pillows", "Sharpened the kitchen knives",
         "Serviced the lawnmower myself", "Recycled the old CRT telly finally", "Fitted draught excluders on the back door", "Got a spare set of car keys cut"]
for h in HOUSE:
    days = rdays(3, 1800)
    d = ddate(days)
    e("home/job_%s" % d.strftime("%Y_%m_%d"), "%s: %s" % (fmt(d), h), days, "event")

PAYEES = [("the window cleaner", "the quarter"), ("the Institute", "raffle tickets"), ("RSPB", "membership"), ("John Lewis", "Ruth's reading lamp"),
          ("Hattons", "a wagon kit"), ("Claire", "my share of a present for Amir"), ("Owen", "petrol money for Christmas"), ("Lookers", "the car service"),
          ("the pet shop", "bird seed and fat balls"), ("Screwfix", "tools"), ("Amazon", "printer ink"), ("the foodbank", "a Christmas donation"),
          ("the NYMR", "membership renewal"), ("Jet2", "seat selection"), ("the NYMR", "gala tickets for Geoff and me"), ("Trainline", "tickets to Cardiff"),
          ("the Minster", "Ruth's friend's tour"), ("the allotment society", "seed potatoes"), ("Specsavers", "spare glasses case"), ("Waterstones", "book tokens")]
for i in range(40):
    days = rdays(2, 1500)
    d = ddate(days)
    pay, what = R.choice(PAYEES)
    e("finance/txn_%s" % d.strftime("%Y_%m_%d"), "Paid £%d to %s for %s" % (R.choice([8, 12, 15, 20, 25, 36, 40, 55, 60, 85, 120, 240]), pay, what), days, "event")

for i in range(50):
    days = rdays(1, 1800)
    d = ddate(days)
    if R.random() < 0.55:
        e("health/bp_%s" % d.strftime("%Y_%m_%d"), "Home BP reading %s: %d/%d, pulse %d" % (fmt(d), R.randint(118, 146), R.randint(70, 92), R.randint(54, 88)), days, "note")
    else:
        res = R.choice(["normal sinus rhythm, 62 bpm", "possible AF, 96 bpm - rested and it settled", "normal sinus rhythm, 58 bpm", "unclassified - too much movement",
                        "possible AF after the stairs at the station, 104 bpm", "normal, 66 bpm"])
        e("health/kardia_%s" % d.strftime("%Y_%m_%d"), "Kardia ECG %s: %s" % (fmt(d), res), days, "note")

GARDEN = ["first frost on the lawn", "apple tree loaded this year", "hedgehog seen on the camera", "daffodils out early", "fox through the garden at 2am",
          "roses have black spot again", "blackbird nesting in the clematis", "storm took two fence panels", "snowdrops under the apple tree",
          "heavy hail, the tomatoes in the greenhouse survived", "robin following me round while I dug", "greenfinches back at the feeder after years",
          "sparrowhawk took a collared dove off the lawn", "lawn scarified and seeded", "planted tulip bulbs with Theo", "moles in the Ahmeds' lawn, not ours yet"]
for g in GARDEN:
    days = rdays(3, 1200)
    d = ddate(days)
    e("garden/%s" % d.strftime("%Y_%m_%d"), "%s: %s" % (fmt(d), g), days, "note")

DIARY = [
 "Up early, still dark.", "Ruth was already on her second cup of tea.", "Spent the morning sorting the study.", "The radio said more rain tomorrow.",
 "Went to the Co-op for bread and the paper supplement.", "Had a long phone call with an old colleague about the resignalling at Leeds.",
 "Afternoon nap, which Ruth says I now take every day.", "Fixed the wobbly leg on the kitchen chair with wood glue and a clamp.",
 "Watched the news and got cross about the trains again.", "Tidied the loft and found a box of old photographs from the seventies.",
 "Neighbour asked me to look at his outside light; it was just the bulb.", "Wrote a letter to the Yorkshire Post about the state of the A64, will probably not send it.",
 "Walked round the village and stopped at the bakery for a sausage roll.", "The heating came on late because I forgot to change the timer.",
 "Did the crossword in the afternoon and got stuck on 14 down.", "Made a pan of soup with what was left in the veg drawer.",
 "Ruth's friends came round for coffee so I kept out of the way.", "Cleaned the car windows inside, the condensation was awful.",
 "Listened to an old Brass Band recording from Black Dyke.", "Spent an hour trying to find the right charger for the camera.",
 "Phoned the council about the pothole on the corner again.", "Checked the allotment after the wind, all fine.",
 "Read the paper on the iPad and did the quick crossword.", "Watered the house plants, the peace lily was drooping.",
 "Tried to get a repeat of the old Clarkson programme on trains.", "Ordered a birthday card online and then found we had one in the drawer.",
 "Put the bins out and brought the recycling box back in for next door.", "Caught up on emails, mostly newsletters.",
 "Early night, felt tired after the long day.", "Sorted out the Christmas lights - half the bulbs gone as usual.",
]
for i in range(45):
    days = rdays(2, 1500)
    d = ddate(days)
    n = R.randint(3, 6)
    e("diary/%s" % d.strftime("%Y_%m_%d"), "Diary %s. %s" % (fmt(d), " ".join(R.sample(DIARY, n))), days, "note")

# ---------------------------------------------------------------- de-duplicate generated keys, validate, write
def finalize():
    seen = set()
    for i, en in enumerate(ENTRIES):
        k = en["key"]
        if k in seen:
            if i >= GEN_START:
                n = 2
                while "%s_%d" % (k, n) in seen:
                    n += 1
                en["key"] = k = "%s_%d" % (k, n)
            else:
                PROBLEMS.append("duplicate hand-written key: %s" % k)
        seen.add(k)

KINDS = {"direct": 30, "paraphrase": 40, "drift": 60, "followup": 20, "multi": 50, "update": 50}
KEY_RE = re.compile(r"^[a-z0-9_]+(/[a-z0-9_]+)*$")
TYPES = {"fact", "preference", "event", "decision", "note"}

def validate():
    by_key = {}
    for en in ENTRIES:
        k = en["key"]
        if set(en) != {"key", "value", "days_ago", "type", "description"}:
            PROBLEMS.append("bad entry fields: %s" % k)
        if not KEY_RE.match(k):
            PROBLEMS.append("bad key format: %r" % k)
        if en["type"] not in TYPES:
            PROBLEMS.append("bad type %s for %s" % (en["type"], k))
        if not (isinstance(en["days_ago"], float) and en["days_ago"] > 0):
            PROBLEMS.append("bad days_ago for %s" % k)
        if en["description"] is not None and not (isinstance(en["description"], str) and en["description"].strip()):
            PROBLEMS.append("bad description for %s" % k)
        nw = len(en["value"].split())
        if nw < 5 or nw > 80:
            PROBLEMS.append("value length %d words outside 5..80: %s" % (nw, k))
        by_key[k] = en
    ids = Counter(qq["id"] for qq in QUESTIONS)
    for i, c in ids.items():
        if c > 1:
            PROBLEMS.append("duplicate question id %s" % i)
    texts = Counter(qq["turns"][-1].strip().lower() for qq in QUESTIONS)
    for t, c in texts.items():
        if c > 1:
            PROBLEMS.append("duplicate final turn: %s" % t)
    all_stale = set()
    for qq in QUESTIONS:
        all_stale.update(qq["stale"])
    for qq in QUESTIONS:
        qid, kind, turns, ans, st = qq["id"], qq["kind"], qq["turns"], qq["answers"], qq["stale"]
        if kind not in KINDS:
            PROBLEMS.append("%s: bad kind %s" % (qid, kind))
        if not turns or any(not isinstance(t, str) or not t.strip() for t in turns):
            PROBLEMS.append("%s: empty turn" % qid)
        if not ans:
            PROBLEMS.append("%s: no answers" % qid)
        if len(set(ans)) != len(ans) or len(set(st)) != len(st):
            PROBLEMS.append("%s: repeated key in answers/stale" % qid)
        for k in ans + st:
            if k not in by_key:
                PROBLEMS.append("%s: unknown key %s" % (qid, k))
        if set(ans) & set(st):
            PROBLEMS.append("%s: answers and stale overlap" % qid)
        if kind == "update":
            if not st:
                PROBLEMS.append("%s: update without stale" % qid)
            for s_ in st:
                for a in ans:
                    if s_ in by_key and a in by_key and by_key[s_]["days_ago"] <= by_key[a]["days_ago"]:
                        PROBLEMS.append("%s: stale %s not older than %s" % (qid, s_, a))
        elif st:
            PROBLEMS.append("%s: stale given for non-update kind" % qid)
        if kind != "update":
            for a in ans:
                if a in all_stale:
                    PROBLEMS.append("%s: answer %s is an outdated (stale) entry elsewhere" % (qid, a))
        if kind in ("direct", "paraphrase", "multi", "update") and len(turns) != 1:
            PROBLEMS.append("%s: %s should have one turn" % (qid, kind))
        if kind == "drift" and not (3 <= len(turns) <= 4):
            PROBLEMS.append("%s: drift needs 2-3 earlier turns" % qid)
        if kind == "followup" and len(turns) < 2:
            PROBLEMS.append("%s: followup needs an earlier turn" % qid)
        if kind == "multi" and not (2 <= len(ans) <= 4):
            PROBLEMS.append("%s: multi needs 2-4 answers" % qid)
    counts = Counter(qq["kind"] for qq in QUESTIONS)
    for k, mn in KINDS.items():
        if counts[k] < mn:
            PROBLEMS.append("kind %s has %d questions, want >= %d" % (k, counts[k], mn))
    if len(QUESTIONS) < 240:
        PROBLEMS.append("only %d questions" % len(QUESTIONS))
    if not (1100 <= len(ENTRIES) <= 1400):
        PROBLEMS.append("entry count %d not about 1,200" % len(ENTRIES))
    return by_key, counts

def stale_overlap(by_key):
    stop = set("a an the and or of to in on at for with is are was my i me we our now has have had from by it be as this that after since".split())
    def words(s):
        return set(w for w in re.findall(r"[a-z0-9']+", s.lower()) if w not in stop)
    vals = []
    for qq in QUESTIONS:
        for s_ in qq["stale"]:
            a, b = words(by_key[qq["answers"][0]]["value"]), words(by_key[s_]["value"])
            vals.append(len(a & b) / max(1, len(a | b)))
    return sum(vals) / max(1, len(vals))

def main():
    finalize()
    by_key, counts = validate()
    used = set()
    for qq in QUESTIONS:
        used.update(qq["answers"]); used.update(qq["stale"])
    lens = [len(en["value"].split()) for en in ENTRIES]
    data = {"entries": ENTRIES, "questions": QUESTIONS}
    with open(os.path.join(HERE, "set.json"), "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, indent=1)
        f.write("\n")
    kind_lines = "\n".join("| %s | %d |" % (k, counts[k]) for k in KINDS)
    readme = """# relevance3 - development set for the memory selector

Generated by `python3 build.py` (Python standard library only, deterministic: fixed seed, fixed reference date 1 December 2026).
The script writes `set.json` and this README, validates everything, and exits non-zero on any problem.

## Persona

One user: **Dennis "Den" Whitcombe**, 69, a retired railway signalling engineer (38 years, British Rail / Network Rail) living near York, UK
with his wife Ruth, a retired primary teacher. He volunteers as a signalman on the North Yorkshire Moors Railway, at the York Foodbank and as a
school reading helper; he sings bass in a male voice choir, builds an OO gauge model railway, watches birds and keeps an allotment.
Family: daughter Claire (physio, Leeds) with husband Amir and grandchildren Maya and Theo (Theo has a peanut allergy); son Owen and
Jess in Cardiff with baby Iris; a sister in Spain and a brother in Australia. Health: atrial fibrillation on apixaban, sleep apnoea (CPAP),
penicillin allergy, shellfish intolerance, a knee replacement booked for February 2027. Finances: railway and state pensions, an ISA,
Premium Bonds, a little consultancy income. Travel: a Porto trip in April 2027 and a Glacier Express trip in June 2027, plus many past trips.
Many facts changed over time (house move from Acomb to Haxby, new car, new GP, new dog, choir day, etc.), so older entries are still stored.

## Format

`set.json`:

```
{"entries":   [{"key", "value", "days_ago", "type" (fact|preference|event|decision|note), "description" (str or null)}],
 "questions": [{"id", "kind", "turns" (user messages only, oldest first; last one is the question), "answers" (all keys needed), "stale" (update only)}]}
```

`stale` lists older versions of the same fact that are still stored; a selector should show them after the newer entry or not at all.
Stale and new versions usually have different keys and share few words (mean word-Jaccard between a stale entry and its replacement: %.2f).

## Counts

- entries: %d (%d keys used as answers or stale; the rest are realistic distractors from the same person's life, many close in topic:
  other trips, other relatives, other doctors, logs of bird sightings, allotment work, model-railway purchases, railway turns, walks, readings)
- entry length: %d to %d words
- questions: %d

| kind | questions |
|---|---|
%s

Kinds: direct (plain question sharing words with the entry), paraphrase (needs an inference step, little word overlap), drift (2-3 unrelated
earlier turns before the question), followup (the last turn only makes sense with an earlier turn), multi (2-4 entries on different facets),
update (the newer entry answers; older versions are in `stale`).

## Provenance

Written by hand (questions, meaningful entries, hand-written distractors) plus template-generated log-style distractors, from the task
description only. It was written without seeing the selector's code, its prompts, or any other evaluation or training set.
""" % (stale_overlap(by_key), len(ENTRIES), len(used), min(lens), max(lens), len(QUESTIONS), kind_lines)
    with open(os.path.join(HERE, "README.md"), "w", encoding="utf-8") as f:
        f.write(readme)
    print("entries: %d (used by questions: %d, distractors: %d)" % (len(ENTRIES), len(used), len(ENTRIES) - len(used)))
    print("questions: %d" % len(QUESTIONS))
    for k in KINDS:
        print("  %-10s %d" % (k, counts[k]))
    print("entry words: min %d max %d; stale/new mean Jaccard %.2f" % (min(lens), max(lens), stale_overlap(by_key)))
    if PROBLEMS:
        print("\nPROBLEMS (%d):" % len(PROBLEMS), file=sys.stderr)
        for p_ in PROBLEMS:
            print("  " + p_, file=sys.stderr)
        sys.exit(1)
    print("OK")

if __name__ == "__main__":
    main()
