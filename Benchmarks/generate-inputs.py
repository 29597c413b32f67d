#!/usr/bin/env python3
"""Writes the benchmark inputs into a folder (default: Benchmarks/Inputs):

  policy-48.yaml / .json      about 14 KB: 48 rules, 16 messages in 4 languages
  policy-2000.yaml / .json    about 350 KB: 2,000 rules, 100 messages in 4 languages
  lint-1000/*.yaml            1,000 policies of 4 to 48 rules, for policy-lint over many files

The rules use every kind of condition (platform, version ranges, builds, OS versions, launch state, locale, region,
date windows, rollout, attributes, all/any/not) and every action, and decode without errors. The JSON files hold the
same content. The output is the same on every run (a seeded generator).
"""
import json
import os
import random
import re
import sys

LANGUAGES = ["default", "de", "ja", "pt-BR"]
WORDS = ("update lantern version keep going available maintenance tonight welcome back new features faster "
         "sync offline photos album share export premium trial thanks patience").split()


def sentence(rng, words):
    text = " ".join(rng.choice(WORDS) for _ in range(words))
    return text[0].upper() + text[1:] + "."


def condition(rng, index):
    """One rule's `when`: a few keys, now and then an all/any/not."""
    major = 1 + index % 9
    minor = rng.randrange(0, 12)
    pool = [
        ("platform", rng.choice(["ios", "android", ["ios", "ipados"], "macos"])),
        ("app-version", rng.choice([f"< {major}.{minor}", f">= {major}.0 < {major + 1}", f"{major}.{minor}.x",
                                    f"> {major}.{minor}.{rng.randrange(10)}"])),
        ("build", f"< {100 + index * 3}"),
        ("os-version", f">= {12 + index % 6}"),
        ("launch-count", f">= {1 + index % 20}"),
        ("days-since-last-launch", f">= {7 + index % 30}"),
        ("launch", rng.choice(["first", "upgrade", "normal"])),
        ("locale", rng.choice(["de", "ja", "pt-BR", ["en", "en-GB"]])),
        ("region", rng.choice(["NO", "JP", "BR", ["DE", "AT", "CH"]])),
        ("rollout", f"{rng.randrange(1, 100)}%"),
        ("date", {"from": f"2026-{1 + index % 12:02d}-01T00:00:00Z", "until": f"2027-{1 + index % 12:02d}-15T00:00:00Z"}),
        ("attributes", {"plan": rng.choice(["free", "pro", "team"])}),
    ]
    picked = dict(rng.sample(pool, rng.randrange(1, 4)))
    shape = index % 7
    if shape == 0:
        return {"all": [{k: v} for k, v in picked.items()] + [{"not": {"region": "CN"}}]}
    if shape == 1:
        return {"any": [{k: v} for k, v in picked.items()]}
    return picked


def leaving_out_cn(when):
    """A gate's condition that does not hold in CN: the benchmark's launch in CN is stopped by no gate, and so decides
    every rule, in every policy made here (the other gates, `block`, open in a window after the benchmark's now). A
    condition that names its regions, none of them CN, or already leaves CN out, is one."""
    if "region" in when or any(part == {"not": {"region": "CN"}} for part in when.get("all", [])):
        return when
    return {**when, "not": {"region": "CN"}}


def policy(rule_count, message_count, seed):
    rng = random.Random(seed)
    messages = {}
    for m in range(message_count):
        messages[f"message-{m}"] = {language: sentence(rng, 9 + m % 5) for language in LANGUAGES}
    rules = []
    actions = ["require-update", "suggest-update", "notify", "present", "grant", "block"]
    for r in range(rule_count):
        action = actions[r % len(actions)]
        rule = {"id": f"rule-{r}", "when": condition(rng, r), "then": action}
        if action == "require-update":
            rule["when"] = leaving_out_cn(rule["when"])
        if action in ("require-update", "suggest-update", "notify", "block"):
            rule["message"] = f"message-{r % message_count}"
        if action == "block":
            rule["when"] = {"date": {"from": "2026-12-01T02:00:00Z", "until": "2026-12-01T04:00:00Z"},
                            "app-version": f"< {1 + r % 9}.0"}
        if action in ("suggest-update", "notify"):
            rule["show"] = rng.choice(["once", "once-per-version", "every-launch"])
        if action == "present":
            rule["screen"] = f"whats-new-{r}"
            rule["show"] = "once-per-version"
        if action == "grant":
            rule["when"] = {"original-app-version": f"< {100 + r}"}
            rule["entitlements"] = [f"pro-{r}", "no-ads"]
        rules.append(rule)
    return {
        "policy": 1,
        "id": f"benchmark-{rule_count}",
        "store": {"ios": "https://apps.apple.com/app/id000000000", "android": "market://details?id=app.lantern"},
        "messages": messages,
        "rules": rules,
    }


def yaml_scalar(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if re.fullmatch(r"[a-z][a-z0-9-]*", value) and value not in ("yes", "no", "on", "off", "true", "false", "null"):
        return value  # ids and keywords plain, as people write them
    return json.dumps(value, ensure_ascii=False)  # anything else double-quoted


def yaml_lines(value, indent):
    """Block style, as people write policies; flow style for short lists of scalars."""
    pad = "  " * indent
    lines = []
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, (dict, list)) and not (isinstance(item, list) and all(isinstance(x, str) for x in item)):
                lines.append(f"{pad}{key}:")
                lines.extend(yaml_lines(item, indent + 1))
            elif isinstance(item, list):
                lines.append(f"{pad}{key}: [{', '.join(yaml_scalar(x) for x in item)}]")
            else:
                lines.append(f"{pad}{key}: {yaml_scalar(item)}")
    else:
        for item in value:
            inner = yaml_lines(item, indent + 1)
            lines.append(f"{pad}- {inner[0].lstrip()}")
            lines.extend(inner[1:])
    return lines


def write(folder, name, document):
    with open(os.path.join(folder, name + ".yaml"), "w", encoding="utf-8") as file:
        file.write("\n".join(yaml_lines(document, 0)) + "\n")
    with open(os.path.join(folder, name + ".json"), "w", encoding="utf-8") as file:
        json.dump(document, file, ensure_ascii=False, indent=2)


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs")
    os.makedirs(os.path.join(folder, "lint-1000"), exist_ok=True)
    write(folder, "policy-48", policy(48, 16, seed=48))
    write(folder, "policy-2000", policy(2000, 100, seed=2000))
    for n in range(1000):
        rng = random.Random(n)
        document = policy(rng.randrange(4, 49), rng.randrange(2, 17), seed=n)
        with open(os.path.join(folder, "lint-1000", f"policy-{n:04d}.yaml"), "w", encoding="utf-8") as file:
            file.write("\n".join(yaml_lines(document, 0)) + "\n")


if __name__ == "__main__":
    main()
