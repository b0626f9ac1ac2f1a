<?php
/* Makes tests/data/yioop/bundle-2021-searches.json.gz: Yioop's own answers to searches over the
 * committed test bundle (tests/data/yioop/bundle-2021.tar.gz), through its PhraseModel as a
 * search request runs it (getPhrasePageResults, first page of ten, no cache): for each query the
 * word struct Yioop built, the generations its iterators see each word in (its IndexManager's
 * getWordInfo: the bundle's IndexDictionary and the active shard), the ranked pages
 * getSummariesByHash computed before it read their summaries (each URL group's DOC_RANK,
 * RELEVANCE, PROXIMITY, fused SCORE and members), and the page it returned (TOTAL_ROWS, URLs,
 * scores). Run once, outside the suite; its output is committed. Yioop (GPLv3) is not part of
 * this repository:
 *
 *   php -d extension=modules/gpupost.so scripts/yioop-search-testdata.php YIOOP_SRC OUT_DIR
 *
 * YIOOP_SRC as for scripts/yioop-bundle-testdata.php (eagle-prog/yiaap-oasis at 7996139). The
 * queries are drawn (seeded) from the bundle's own corpus, Debian's /usr/share/common-licenses:
 * pairs and fours of a paragraph's words, negated words, quoted phrases, phrases with Yioop's
 * "*" gap, a word repeated, a word in no document, site: meta words, single words, and
 * disjunctions ("|") of those.
 *
 * Also tests/data/yioop/snippets.json.gz: Yioop's own Model::getSnippets on that corpus's
 * paragraphs, alone and joined as getCrawlItems joins a group's descriptions (".. "), mixed with
 * text of other scripts (accents, combining marks, Greek, Japanese, the letters Unicode folds to
 * ASCII ones, private use, digits of other scripts, emoji), for words of the paragraph, words in
 * no text, no words, at three lengths. */
namespace {
    use seekquarry\yioop\library as L;

    [, $src, $out] = $argv + [null, null, null];
    if (!$src || !$out || !is_file("$src/configs/Config.php")) {
        fwrite(STDERR, "usage: php scripts/yioop-search-testdata.php YIOOP_SRC OUT_DIR\n");
        exit(2);
    }
    require __DIR__ . '/yioop-bundle-lib.php';
    $work = sys_get_temp_dir() . '/yioop-search-work-' . getmypid();
    $name = '1600000000';
    $dir = "$work/cache/IndexData$name";
    @mkdir($dir, 0777, true);
    (new PharData(__DIR__ . '/../tests/data/yioop/bundle-2021.tar.gz'))->extractTo($dir);
    yioop_load($src, $work, 130);
    require __DIR__ . '/yioop-phrase-model.php';

    /* --- the queries --- */
    $paras = [];
    $files = glob('/usr/share/common-licenses/*');
    sort($files);
    foreach ($files as $f) {
        if (is_file($f)) $paras = array_merge($paras, array_values(yioop_paragraphs(file_get_contents($f), 7)));
    }
    mt_srand(39);
    $pick = fn(array $a) => $a[mt_rand(0, count($a) - 1)];
    $queries = [];
    while (count($queries) < 280) {
        preg_match_all('/[a-z]{3,}/', strtolower($pick($paras)), $m);
        $w = $m[0];
        if (count($w) < 6) continue;
        $i = mt_rand(0, count($w) - 4);
        $two = fn() => $pick($w) . ' ' . $pick($w);
        $queries[] = count($queries) >= 270 ? $two() . (count($queries) % 2 ? ' w:2' : ' weight:0.5') :
            (count($queries) >= 240 ? match (count($queries) % 3) {
            0 => $two() . ' | ' . $two(),
            1 => $pick($w) . ' ' . $pick($w) . ' | ' . $pick($w) . ' -' . $pick($w),
            2 => '"' . $w[$i] . ' ' . $w[$i + 1] . '" | ' . $two() . ' | ' . $pick($w),
        } : match (count($queries) % 10) {
            0 => $two(),
            1 => $two() . ' -' . $pick($w),
            2 => '"' . $w[$i] . ' ' . $w[$i + 1] . '"',
            3 => '"' . $w[$i] . ' * ' . $w[$i + 2] . '" ' . $pick($w),
            4 => $pick($w) . ' ' . $pick($w) . ' ' . $pick($w) . ' ' . $pick($w),
            5 => $pick($w) . ' zqxjvnotaword',
            6 => $pick($w) . ' site:licenses.example.org',
            7 => $pick($w),
            8 => $two() . ' -zqxjvnotaword',
            9 => $w[$i] . ' ' . $w[$i] . ' ' . $pick($w),
        });
    }

    /* --- Yioop's answers --- */
    $hex = fn(array $ids) => array_map('bin2hex', $ids);
    $records = [];
    foreach ($queries as $query) {
        $answer = YioopRecordingPhraseModel::search($name, $query);
        $record = ['query' => $query];
        if ($answer instanceof Throwable) {
            $record['yioop_fails'] = get_class($answer) . ': ' . $answer->getMessage();
            $records[] = $record;
            continue;
        }
        [$results, $structs, $ranked] = $answer;
        $record['structs'] = [];
        foreach ($structs as $s) {
            if (!is_array($s) || !isset($s['KEYS'])) continue;
            $keys = array_map(fn($k) => L\unbase64Hash($k), $s['KEYS']);
            $negated = array_map(fn($k) => L\unbase64Hash($k), $s['DISALLOW_KEYS']);
            $seen = [];
            foreach (array_merge($keys, $negated) as $id) {
                ob_start();
                $info = L\IndexManager::getWordInfo($name, $id, -1, -1, 20, true);
                ob_end_clean();
                $seen[bin2hex($id)] = array_map(fn($e) => (int)$e[0], $info[1] ?? []);
            }
            $record['structs'][] = ['KEYS' => $hex($keys), 'DISALLOW_KEYS' => $hex($negated),
                'QUOTE_POSITIONS' => $s['QUOTE_POSITIONS'], 'WEIGHT' => $s['WEIGHT'], 'generations' => $seen];
        }
        $record['ranked'] = [];
        foreach ($ranked as $p) {
            $members = [];
            foreach ($p[L\CrawlConstants::SUMMARY_OFFSET] as $so) {
                if (count($so) == 5) $members[] = [(int)$so[3], (int)$so[4]];
            }
            $record['ranked'][] = [bin2hex(substr($p[L\CrawlConstants::KEY], 0, 8)), (float)$p[L\CrawlConstants::DOC_RANK],
                (float)$p[L\CrawlConstants::RELEVANCE], (float)$p[L\CrawlConstants::PROXIMITY],
                (float)$p[L\CrawlConstants::SCORE], $members];
        }
        $record['total_rows'] = (int)$results['TOTAL_ROWS'];
        $record['page'] = array_map(fn($p) => [$p[L\CrawlConstants::URL] ?? null, (float)$p[L\CrawlConstants::SCORE]],
            $results['PAGES'] ?? []);
        $records[] = $record;
    }
    ini_set('serialize_precision', '-1');

    /* --- Yioop's snippets --- */
    $model = (function () {
        ob_start();
        $m = new seekquarry\yioop\models\PhraseModel(seekquarry\yioop\configs\DB_NAME, false);
        ob_end_clean();
        return $m;
    })();
    $extra = ["caf\u{e9} na\u{ef}ve r\u{e9}sum\u{e9}", "\u{3b1}\u{3b2}\u{3b3} \u{3b4}\u{3b5}", "\u{65e5}\u{672c}\u{8a9e}\u{306e}",
        "\u{212a}elvin \u{17f}oftware", "e\u{301}t\u{e9} co\u{308}operate", "\u{e000}priv\u{e001}ate",
        "\u{661}\u{662}\u{663} numbers \u{2163}", "snake_case under_score", "a\u{a0}b\u{2003}c", "\u{1f600} emoji", "tab\tsep"];
    $texts = [];
    $cases = [];
    mt_srand(40);
    foreach ($paras as $i => $para) {
        if (count($texts) >= 400) break;
        $text = $para;
        if ($i % 3 == 1) {
            $words = explode(' ', $text);
            for ($k = 0; $k < 5; $k++) array_splice($words, mt_rand(0, count($words)), 0, [$pick($extra)]);
            $text = implode(' ', $words);
        }
        if ($i % 4 == 2) $text .= '.. ' . $pick($paras) . '.. ' . $para;
        preg_match_all('/[a-z]{2,}/', strtolower($text), $m);
        if (!$m[0]) continue;
        $texts[] = $text;
        $t = count($texts) - 1;
        foreach ([[$pick($m[0]), $pick($m[0])], [$pick($m[0])], [substr($pick($m[0]), 0, 3), 'zqxjv'], [],
                  ['kelvin', 'software', $pick($m[0]) . ' ' . $pick($m[0])]] as $words) {
            foreach ([150, 60, 300] as $length) $cases[] = [$t, $words, $length, $model->getSnippets($text, $words, $length)];
        }
    }
    file_put_contents("$out/snippets.json.gz", gzencode(json_encode(['texts' => $texts, 'cases' => $cases],
        JSON_THROW_ON_ERROR | JSON_UNESCAPED_UNICODE) . "\n", 9));
    printf("%d snippets by Yioop over %d texts\n", count($cases), count($texts));

    file_put_contents("$out/bundle-2021-searches.json.gz", gzencode(json_encode($records, JSON_THROW_ON_ERROR) . "\n", 9));
    exec('rm -rf ' . escapeshellarg($work));
    printf("%d queries, %d answered by Yioop, %d ranked pages\n", count($records),
        count(array_filter($records, fn($r) => !isset($r['yioop_fails']))),
        array_sum(array_map(fn($r) => count($r['ranked'] ?? []), $records)));
}
