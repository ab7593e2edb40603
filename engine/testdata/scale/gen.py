# Writes the recordings of the scaling tests: candidates for one question
# that disagree (albums vs tracks vs nothing vs an invalid plan), and the
# selector's verdicts. Run from this directory: python3 gen.py
import copy, json, os
Q = "Which artist has released the most albums?"
NOTE = "Written by hand for the test-time scaling tests; not produced by a model."
base = json.load(open("../../../examples/chinook/recordings/plan--chinook--which-artist-has-released-the-most-albums.json"))["answer"]["plan"]

def albums(a1="Artist", a2="AlbumCount"):
    p = copy.deepcopy(base)
    p["select"][0]["alias"], p["select"][1]["alias"] = a1, a2
    p["order_by"][0]["expr"]["column"] = a2
    return p

def tracks(a1="Artist", a2="TrackCount"):
    p = albums(a1, a2)
    p["from"].append({"table": "Track", "alias": "t"})
    p["joins"].append({"type": "inner", "left": "al", "right": "t", "on": [{"left_column": "AlbumId", "right_column": "AlbumId"}]})
    return p

def empty():
    p = albums()
    p["where"] = {"kind": "binary", "op": "=", "left": {"kind": "column", "table": "ar", "column": "Name"},
                  "right": {"kind": "literal", "type": "string", "value": "Nobody at all"}}
    return p

def invalid():
    p = albums()
    p["select"][0]["expr"]["column"] = "Nme"
    return p

def rec(step, sample, answer, usage=(1500, 120)):
    name = f"{step}--chinook--which-artist-has-released-the-most-albums" + (f"--{sample}" if sample else "") + ".json"
    d = {"step": step, "datasource": "chinook", "question": Q, "sample": sample, "note": NOTE,
         "prompt_sha256": "", "answer": answer, "usage": {"input_tokens": usage[0], "output_tokens": usage[1]}}
    with open(os.path.join("recordings", name), "w") as f:
        json.dump(d, f, indent=2)
        f.write("\n")

os.makedirs("recordings", exist_ok=True)
why = "Count each artist's albums and return the top one."
rec("plan", 0, {"reasoning": why, "plan": albums()})
rec("plan", 100, {"reasoning": "Count the tracks of each artist's albums.", "plan": tracks()})
rec("plan_reasoning", 0, {"reasoning": "Releases are tracks; count them per artist.", "plan": tracks("Name", "Releases")})
rec("plan_reasoning", 100, {"reasoning": why, "plan": albums("ArtistName", "Albums")})
rec("plan_decompose", 0, {"reasoning": "Sub-questions: tracks per album, albums per artist.", "plan": tracks("A", "N")})
rec("plan_decompose", 100, {"reasoning": "Filter to the artist asked about.", "plan": empty()})
rec("plan_decompose", 200, {"reasoning": "Albums per artist.", "plan": invalid()})
for i in range(3):
    rec("select", i, {"winner": "A", "reason": "The question counts albums, not tracks; A answers it."}, (900, 20))
crit = [("correct", "none", "It counts albums per artist."),
        ("incorrect", "wrong_aggregation", "Count albums, not the tracks on them."),
        ("incorrect", "missing_filter", "Drop the filter on the artist's name.")]
for i, (v, c, h) in enumerate(crit):
    rec("critique", i, {"verdict": v, "error_class": c, "fix_hint": h}, (1100, 30))
for i in range(2):
    rec("plan_revise", i * 100, {"reasoning": "Revised: " + why, "plan": albums("Artist", "Albums")})
rec("route", 0, {"difficulty": "easy"}, (700, 5))
