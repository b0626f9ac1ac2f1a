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
 * "*" gap, a word repeated, a word in no document, site: meta words, single words. */
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
    while (count($queries) < 240) {
        preg_match_all('/[a-z]{3,}/', strtolower($pick($paras)), $m);
        $w = $m[0];
        if (count($w) < 6) continue;
        $i = mt_rand(0, count($w) - 4);
        $two = fn() => $pick($w) . ' ' . $pick($w);
        $queries[] = match (count($queries) % 10) {
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
        };
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
    file_put_contents("$out/bundle-2021-searches.json.gz", gzencode(json_encode($records, JSON_THROW_ON_ERROR) . "\n", 9));
    exec('rm -rf ' . escapeshellarg($work));
    printf("%d queries, %d answered by Yioop, %d ranked pages\n", count($records),
        count(array_filter($records, fn($r) => !isset($r['yioop_fails']))),
        array_sum(array_map(fn($r) => count($r['ranked'] ?? []), $records)));
}
