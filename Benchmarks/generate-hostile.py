#!/usr/bin/env python3
"""Writes the hostile policies Benchmarks/hostile.sh times: files within every limit of the reader (1 MiB, 100,000
nodes with aliases counted, 64 KiB scalars) that are made to cost time or memory through what the tools do with
them. Each is named for what it tries; all are the same on every run.

    python3 Benchmarks/generate-hostile.py OUTPUT_FOLDER
"""
import json
import os
import random
import sys

HEAD = 'policy: 1\nid: hostile\nstore:\n  ios: "itms-apps://x"\n'
MESSAGE = 'messages:\n  m:\n    default: "Hi."\n'


def rules(count, when, then='block'):
    return 'rules:\n' + ''.join(
        f'  - id: r{i}\n    when: {when(i)}\n    then: {then}\n    message: m\n' for i in range(count))


def bounded(text, limit=60_000, separator=' '):
    """The longest prefix of `text` under `limit` bytes that ends before a separator."""
    text = text[:limit]
    return text[:text.rfind(separator)]


def files():
    # One value of 60 KB quoted at each of 40,000 aliases: every use is an error that quotes it.
    aliases = ', '.join(['*a'] * 40_000)
    yield 'aliased-value.yaml', HEAD + MESSAGE + (
        f'rules:\n  - id: r\n    when:\n      locale: [&a "{"x" * 60_000}", {aliases}]\n    then: block\n'
        '    message: m\n')
    # 16 ranges of about 7,000 alternatives, each a partial version: a warning at each, and ranges compared.
    alternatives = bounded(' || '.join(f'{i // 100}.{i % 100}' for i in range(9_000)), separator=' ||')
    yield 'many-alternatives.yaml', HEAD + MESSAGE + rules(16, lambda i: f'{{app-version: "{alternatives}"}}')
    # 16 ranges of about 7,000 exclusions in one alternative.
    exclusions = bounded(' '.join(f'!={i // 100}.{i % 100}' for i in range(9_000)))
    yield 'many-exclusions.yaml', HEAD + MESSAGE + rules(16, lambda i: f'{{app-version: ">= 0 {exclusions}"}}')
    # 100 rules of 60 nested choices: more alternatives than the condition analysis takes.
    choices = '\n'.join(f'        - any: [{{launch-count: "> {i}"}}, {{days-since-install: "< {i}"}}]'
                        for i in range(60))
    yield 'nested-choices.yaml', HEAD + MESSAGE + rules(100, lambda i: f'\n      all:\n{choices}')
    # 3,500 rules and 4,500 test cases: every case runs every rule.
    cases = ''.join(f'  - name: t{i}\n    context: {{platform: ios, app-version: "{i}.5"}}\n'
                    '    expect: {gate: none}\n' for i in range(4_500))
    yield 'rules-times-tests.yaml', HEAD + MESSAGE + rules(
        3_500, lambda i: f'{{app-version: "< {i}.0"}}', then='notify') + 'tests:\n' + cases
    # 4,000 gates that do not match and 4,000 cases that expect one: each failure noted every gate, 16 million notes
    # in all (a policy of 9,000 of each, in two files, took policy-lint 23 GB); it notes 20 now.
    failing = ''.join(f'  - name: t{i}\n    context: {{platform: ios}}\n    expect: {{gate: require-update}}\n'
                      for i in range(4_000))
    yield 'failing-tests.yaml', HEAD + MESSAGE + rules(4_000, lambda i: '{platform: android}') + 'tests:\n' + failing
    # 16,000 messages, each in a locale of its own, which every other misses: lint compared each message with each
    # locale and named every one missing (3,000 such messages took 19.6 s and 2.3 GB, and wrote 827 MB); it looks at
    # 4,194,304 pairs now, in file order, and names 20 locales a message.
    yield 'own-locales.yaml', HEAD + 'messages:\n' + ''.join(
        f'  m{i}: {{default: t, en-x-{i:05d}: t}}\n' for i in range(16_000)) + (
        'rules:\n  - {id: r, then: notify, message: m0}\n')
    # 8,000 gates of one app version each, none shadowing another: the shadowing check compares every pair, 32 million,
    # and built intervals around each to compare their versions (27.5 s); their ends settle nearly all now.
    yield 'distinct-gates.yaml', HEAD + MESSAGE + rules(8_000, lambda i: f'{{app-version: "{i}.0.0"}}')
    # 2,200 gates that accept 31 values of one attribute each, 30 of them the same: each gate's values are asked
    # whether they lie within every earlier gate's, 2.4 million pairs, one value at a time; a list compared with a
    # list, or made a set, for each pair cost the product of their lengths (5.2 s).
    common = ', '.join(f'v{j}' for j in range(30))
    yield 'long-attribute-gates.yaml', HEAD + MESSAGE + rules(
        2_200, lambda i: f'{{attributes: {{plan: [{common}, u{i}]}}}}')
    # 95 gates of 251 alternatives each, 250 of them the same versions: each gate's alternatives are compared with
    # every earlier gate's, 250 found before the one that is not (37 s); the shadowing check has a budget of pairs now.
    shared = ', '.join(f'{{app-version: "1.{j}.0"}}' for j in range(250))
    yield 'shared-alternatives.yaml', HEAD + MESSAGE + rules(
        95, lambda i: f'{{any: [{shared}, {{app-version: "{i + 2}.0.0"}}]}}')
    # A message of 60 KB that 14,000 rules show (650 KB): each rule's description and each notice of the decision
    # quote it, 840 MB of output, which `explain` and `eval` held whole, with copies (eval: 17 s and 3.8 GB); they
    # write it as it is made now.
    yield 'long-message.yaml', HEAD + f'messages:\n  m:\n    default: "{"x" * 60_000}"\n' + 'rules:\n' + ''.join(
        f'  - {{id: r{i}, then: notify, message: m}}\n' for i in range(14_000))
    # One `grant` rule listing 90,000 entitlements (709 KB): the decision names each once, and looked for each among
    # those granted before it, 13.7 s for the library's evaluation at an app's launch; a set once there are many now.
    yield 'many-entitlements.yaml', 'policy: 1\nid: hostile\nrules:\n  - id: r\n    then: grant\n' + (
        '    entitlements: [' + ', '.join(f'e{i}' for i in range(90_000)) + ']\n')
    # 4,000 rules and a test case whose memory lists 60,000 of them: each listed rule was looked for among the rules
    # when the policy was read (at an app's launch too, which reads the tests a policy carries) and when policy-lint
    # ran the case; a set and a table now.
    listed = ', '.join(f'r{3_999 - i % 4_000}' for i in range(60_000))
    yield 'long-memory.yaml', HEAD + MESSAGE + 'rules:\n' + ''.join(
        f'  - {{id: r{i}, then: notify, message: m}}\n' for i in range(4_000)) + (
        f'tests:\n  - name: t\n    context: {{platform: ios}}\n    memory: [{listed}]\n    expect: {{gate: none}}\n')
    # 3,000 messages in 11 languages, 1,200 rules naming them.
    languages = ['default', 'en', 'ja', 'de', 'fr', 'es', 'it', 'pt-BR', 'zh-Hans', 'ko', 'nl']
    messages = 'messages:\n' + ''.join(
        f'  m{i}:\n' + ''.join(f'    {language}: "t{i}"\n' for language in languages) for i in range(3_000))
    yield 'many-messages.yaml', HEAD + messages + 'rules:\n' + ''.join(
        f'  - id: r{i}\n    when: {{app-version: "< {i}.0", locale: [en, ja, de, fr]}}\n    then: notify\n'
        f'    message: m{i}\n' for i in range(1_200))
    # `not` nested 2,200 levels in 16 KB: a chain of anchors in one list, each nesting the one before 55 levels
    # deep, which the last rule names. Every level is within the reader's depth as written.
    chain = ['        - &c0 {platform: ios}'] + [
        f'        - &c{k} ' + '{not: ' * 55 + f'*c{k - 1}' + '}' * 55 for k in range(1, 41)]
    yield 'alias-chain.yaml', HEAD + MESSAGE + 'rules:\n  - id: chain\n    when:\n      all:\n' + '\n'.join(chain) + (
        '\n    then: notify\n    message: m\n  - id: last\n    when: *c40\n    then: notify\n    message: m\n')
    # A population of 1,000 rows of a billion users (21 KB), simulated under a rollout: each row wants a million
    # draws, a billion in all, which took about a quarter of an hour before the draws had one budget.
    yield 'large-rows.csv', 'platform,app-version,users\n' + ''.join(
        f'ios,2.{i % 10}.{i % 7},1000000000\n' for i in range(1_000))
    # Misspelt names long enough that suggesting the nearest known one cost more than reading them: 9,000 keys of a
    # rule, each 100 letters (the decoder reports 500), and a population header of 15,000 columns of 60 letters.
    letters = random.Random(8)
    word = lambda length: ''.join(letters.choice('abcdefghij') for _ in range(length))
    yield 'long-keys.yaml', HEAD + MESSAGE + 'rules:\n  - id: r\n    then: notify\n    message: m\n' + ''.join(
        f'    {word(100)}{i}: 1\n' for i in range(9_000))
    yield 'long-header.csv', 'platform,app-version,' + ','.join(word(60) for _ in range(15_000)) + '\nios,1.0\n'
    # A population of a million rows with a field too few (8.8 MB of the 64 MiB a population may have): a problem
    # on each row, which were all held, and printed each with a copy of the whole file.
    yield 'error-rows.csv', 'platform,app-version,users\n' + ''.join(f'ios,1.{i % 50}\n' for i in range(1_000_000))
    # A LaunchGate configuration minified to one line, with wrong values, and as many nodes as the budget allows.
    configuration = {'ios': {'alert': {'message': 'x', 'blocking': 'yes'},
                             'optionalUpdate': {'optionalVersion': '1.x', 'message': 'm'},
                             'requiredUpdate': {'minimumVersion': 'bad', 'message': 'm'}}}
    configuration.update({f'k{i}': {'a': i} for i in range(24_000)})
    yield 'one-line.json', json.dumps(configuration, separators=(',', ':'))
    # The same with a line separator (U+2028) in its first text: libyaml breaks lines there and YAML 1.2 does not, so
    # the reader hands libyaml a copy with a stand-in for it, looks for the stand-in in every scalar, and maps a
    # problem libyaml places by byte back to the input.
    configuration['ios']['alert']['message'] = 'x\u2028y'
    yield 'one-line-separator.json', json.dumps(configuration, separators=(',', ':'), ensure_ascii=False)
    # A configuration of 16,000 keys whose values are two characters past U+FFFF each, written as JSON's escape pairs
    # (as Python and PHP write them), 4,000 different pairs: each is handed to libyaml as a marker and its place in a
    # table, and each value gets its characters back.
    pairs = {'ios': {'alert': {'message': 'x', 'blocking': True}}}
    pairs.update({f'k{i}': chr(0x1F000 + i % 4000) * 2 for i in range(16_000)})
    yield 'escape-pairs.json', json.dumps(pairs, separators=(',', ':'))
    # Language tags of 20,000 subtags: 16 messages each with a text under one (a key written explicitly, as an
    # implicit key is at most 1,024 characters), which policy-lint's missing-translation check looks up for every
    # message. Listing every shorter tag of each, as the lookup once did, took 83 s and 1.2 GB on one such file.
    long_tag = lambda i: f'zh-TW-x-{i}-' + '-'.join(['ab'] * 19_990)
    yield 'long-locale-tags.yaml', HEAD + 'messages:\n' + ''.join(
        f'  m{i}:\n    default: "Hi."\n    ? {long_tag(i)}\n    : "x"\n' for i in range(16)) + 'rules:\n' + ''.join(
        f'  - {{id: r{i}, then: notify, message: m{i}}}\n' for i in range(16))
    # Two locale lists of 20,000 tags under one `all`, one by script and one by region, which no locale holds
    # together, and rules that one of them would shadow: lint compared every tag with every tag (more than two
    # minutes), and looks at no more than its bound now.
    by_script = ', '.join(f'zh-Hant-x-{i:05d}' for i in range(20_000))
    by_region = ', '.join(f'zh-CN-x-{i:05d}' for i in range(20_000))
    yield 'long-locale-lists.yaml', HEAD + MESSAGE + (
        f'rules:\n  - id: both\n    when: {{all: [{{locale: [{by_script}]}}, {{locale: [{by_region}]}}]}}\n'
        '    then: block\n    message: m\n'
        f'  - id: later\n    when: {{locale: [{by_region}]}}\n    then: block\n    message: m\n')
    # Lines of blanks holding a tab, each a second pass of libyaml's to place: 3,000 messages whose texts are block
    # scalars with such a line inside and two after, and two such lines after each of 3,000 rules (15,000 in all).
    tabbed = 'messages:\n' + ''.join(
        f'  m{i}:\n    default: |\n      t{i}\n      \t\n      u{i}\n\t\n  \t  \n' for i in range(3_000))
    yield 'tabbed-blank-lines.yaml', HEAD + tabbed + 'rules:\n' + ''.join(
        f'  - {{id: r{i}, then: notify, message: m{i}}}\n \t# r{i}\n\t\n' for i in range(3_000))
    # Tabs after indicators that start a line, and after a line's spaces, each placed by the same second pass: 3,000
    # rules whose platforms and attributes follow `-\t`, `- \t`, `? \t` and `:\t`, whose message follows a line's
    # spaces and a tab, with `- -\t` in a comment, and a message whose text, a literal block scalar, holds 3,000 lines
    # of `-\t-\t-\t`, which stay text.
    separated = 'messages:\n  m:\n    default: |\n' + ''.join(f'      -\t-\t-\t{i}\n' for i in range(3_000))
    yield 'separating-tabs.yaml', HEAD + separated + 'rules:\n' + ''.join(
        f'  - id: r{i}\n    when:\n      platform:\n        -\tios\n        - \tandroid\n'
        f'      attributes:\n        ? \tplan\n        :\t[pro, "-\tx"]\n    then: notify\n    message:\n     \tm\n'
        f'    # - -\t{i}\n'
        for i in range(3_000))

    # Messages whose texts, literal block scalars, start with a tab after their indentation, each read with a stand-in
    # for the tab; a quoted text whose line ends in `|` before one more such line, a guess the first pass refutes,
    # which makes it run again; and lines of spaces between each header and its text, which the guess walks back over.
    starts = 'messages:\n' + ''.join(
        f'  m{i}:\n    default: |-\n' + '      \n' * 3 + f'\n      \t{i}\t\n      more\n' for i in range(6_000))
    yield 'literal-tabs.yaml', HEAD + starts + '  q:\n    default: "x |\n     \ty"\nrules:\n' + ''.join(
        f'  - {{id: r{i}, then: notify, message: m{i}}}\n' for i in range(6_000))
    # 499 unknown keys before 8,000 rules: each is reported with the nearest key the policy does not have, and each
    # looked for its mapping through the whole tree to compare it with its siblings (135 ms to read).
    unknown = ''.join(f'stray-key-{i}: {i}\n' for i in range(499))
    yield 'unknown-keys.yaml', HEAD + unknown + MESSAGE + rules(
        8_000, lambda i: f'{{app-version: "< {i % 50}.{i % 7}"}}')
    # As many rules as the node limit allows, each with a misspelt key and an unquoted 1.10: 17,000 fix-its, of which
    # a report holds 500 of the keys' (the problems of a fix's passes are not limited).
    misspelt = ''.join(
        f'  - {{id: r{i}, wehn: {{app-version: 1.10}}, then: block, message: m}}\n' for i in range(8_500))
    yield 'many-fixes.yaml', HEAD + MESSAGE + 'rules:\n' + misspelt


def main():
    folder = sys.argv[1]
    os.makedirs(folder, exist_ok=True)
    for name, text in files():
        data = text.encode()
        # Within the reader's limit, or a population's (`launch-policy simulate`).
        limit = 64 << 20 if name.endswith('.csv') else 1 << 20
        assert len(data) <= limit, f'{name} is {len(data)} bytes, over the limit for it'
        with open(os.path.join(folder, name), 'wb') as file:
            file.write(data)


if __name__ == '__main__':
    main()
