--TEST--
GpuPost\Index::yioopSearch: Yioop's own search over a bundle Yioop wrote, 280 queries (pairs, fours, negated words, quoted phrases, "*" gaps, repeated words, absent words, site: words) as Yioop's PhraseModel answered them (scripts/yioop-search-testdata.php): seen as Yioop's iterators see the bundle, every ranked page (URL group, members, DOC_RANK, RELEVANCE, PROXIMITY, fused SCORE) and their order equal Yioop's, disjunctions ("|", Yioop's UnionIterator) included; over every generation, every match Yioop found is found; what is not covered says so; malformed word structs are TypeErrors and ValueErrors
--EXTENSIONS--
gpupost
zlib
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
$tmp = sys_get_temp_dir() . '/gpupost-107-' . getmypid();
gp_remove_tree($tmp);
[, $dir] = yioop_bundle_data($tmp);
$records = json_decode(gzdecode(file_get_contents(__DIR__ . '/data/yioop/bundle-2021-searches.json.gz')), true, 512, JSON_THROW_ON_ERROR);
$ix = GpuPost\Index::openYioopBundle($dir, ['device' => 'host']);
/* JSON writes a whole float as an int */
foreach ($records as &$rec) {
    if (!isset($rec['ranked'])) continue;
    foreach ($rec['ranked'] as &$p) for ($f = 1; $f <= 4; $f++) $p[$f] = (float)$p[$f];
    unset($p);
}
unset($rec);

/* a recorded struct as PhraseModel gave it (word ids raw, as Yioop's unbase64Hash gives them) */
function word_struct(array $s): array {
    return ['KEYS' => array_map('hex2bin', $s['KEYS']), 'DISALLOW_KEYS' => array_map('hex2bin', $s['DISALLOW_KEYS']),
            'QUOTE_POSITIONS' => $s['QUOTE_POSITIONS'], 'WEIGHT' => $s['WEIGHT']];
}
/* the answer's pages as the records hold Yioop's: the group's URL hash, scores, members */
function ranked(GpuPost\Index $ix, array $r, int $most = 200): array {
    $docs = array_merge([], ...array_map(fn($p) => $p['docs'], $r['pages']));
    $fields = $docs ? $ix->yioopDocs($docs) : [];
    $out = [];
    foreach (array_slice($r['pages'], 0, $most) as $p) {
        $members = array_map(fn($d) => [$fields[$d]['generation'], $fields[$d]['summary_offset']], $p['docs']);
        $out[] = [bin2hex(substr($fields[$p['docs'][0]]['key'], 0, 8)), $p['doc_rank'], $p['relevance'], $p['proximity'],
                  $p['score'], $members];
    }
    return $out;
}

$equal = $compared = $pages = $negated = $quoted = $superset = $exhausted = $disjunctions = $union = 0;
foreach ($records as $rec) {
    if (isset($rec['yioop_fails'])) continue;
    $s = $rec['structs'][0];
    $ws = count($rec['structs']) == 1 ? word_struct($s) : array_map('word_struct', $rec['structs']);
    $seen = [];
    foreach ($rec['structs'] as $one) foreach ($one['generations'] as $id => $gens) $seen[hex2bin($id)] = $gens;
    $disjunctions += count($rec['structs']) > 1;
    $r = $ix->yioopSearch($ws, ['generations' => $seen]);
    if (!$r['covered']) { echo "not covered: {$rec['query']}: {$r['why']}\n"; continue; }
    $compared++;
    $mine = ranked($ix, $r);
    if ($mine === $rec['ranked']) {
        $equal++;
        $pages += count($mine);
        $negated += $s['DISALLOW_KEYS'] !== [];
        $quoted += $s['QUOTE_POSITIONS'] !== [];
        $union += count($rec['structs']) > 1;
    } else {
        echo "differs: {$rec['query']}\n";
        foreach ($mine as $i => $p) if ($p !== ($rec['ranked'][$i] ?? null)) { echo '  ', json_encode($p), "\n  ", json_encode($rec['ranked'][$i] ?? null), "\n"; break; }
    }
    /* fewer than 200 pages: Yioop walked every match it sees, and so did this */
    if (count($rec['ranked']) < 200 && (!$r['exhausted'] || $r['matches'] < array_sum(array_map(fn($p) => count($p[5]), $mine)))) {
        echo "walk: {$rec['query']}\n";
    }
    $exhausted += $r['exhausted'];
    /* every generation (the default): each doc Yioop ranked is a match (Yioop misses what its
     * dictionary lost), and the walk counts at least as many */
    if (count($rec['structs']) == 1 && $s['DISALLOW_KEYS'] === [] && $s['QUOTE_POSITIONS'] === []) {
        $all = $ix->yioopSearch($ws);
        $and = [];
        foreach ($ix->attributes($ix->search($ws['KEYS'])) as $a) $and[$a['generation'] . ':' . $a['summary_offset']] = true;
        $theirs = array_merge([], ...array_map(fn($p) => $p[5], $rec['ranked']));
        $missing = array_filter($theirs, fn($m) => !isset($and[$m[0] . ':' . $m[1]]));
        if ($missing || $all['matches'] != count($and) || $all['matches'] < count($theirs)) echo "over every generation: {$rec['query']}\n";
        else $superset++;
    }
}
printf("%d queries compared: %d equal (%d ranked pages; %d with negated words, %d quoted, %d of %d disjunctions), %d walked whole\n",
    $compared, $equal, $pages, $negated, $quoted, $union, $disjunctions, $exhausted);
printf("every generation: Yioop's matches all found for %d queries\n", $superset);
var_dump($compared >= 270, $equal === $compared, $negated >= 40, $quoted >= 40, $pages > 7000, $superset >= 100, $union >= 30);

/* a single word, weight 1: Yioop reads it in slices, not covered */
$one = $ix->yioopSearch(['KEYS' => [hex2bin($records[0]['structs'][0]['KEYS'][0])]]);
var_dump($one['covered'], $one['why'] !== null, $one['pages']);
/* a word the bundle does not hold: no pages, as Yioop */
$none = $ix->yioopSearch(['KEYS' => [str_repeat("\x01", 20), hex2bin($records[0]['structs'][0]['KEYS'][0])]]);
var_dump($none['covered'], $none['pages'], $none['matches']);

/* found by review: 64 empty quotes in one disjunct of two (the other matching nothing) keep its
 * matches; a repeated word whose list Yioop looks up where there is none is left to Yioop (its
 * code fails there), its quotes too; a long descending generation list is read once */
$the = hex2bin('8fc42c6ddf9966db007468650000000000000000');
$time = hex2bin('07cc694b9b3fc6360074696d6500000000000000');
$whether = hex2bin('7d767e6bb05138bb007768657468657200000000');
$lang = hex2bin('98a100dafbc20376006c616e673a656e00000000');
$quoted = ['KEYS' => [$the, $time], 'QUOTE_POSITIONS' => array_fill(0, 64, [])];
var_dump($ix->yioopSearch($quoted)['matches'] === $ix->yioopSearch([$quoted, ['KEYS' => [str_repeat("\1", 20), $the]]])['matches']);
$repeat = ['KEYS' => [$the, $lang, $whether, $whether]];
var_dump($ix->yioopSearch($repeat)['covered'], $ix->yioopSearch($repeat + ['QUOTE_POSITIONS' => [[2 => 1, 3 => 1]]])['covered']);
var_dump(count($ix->yioopSearch(['KEYS' => [$the, $time]], ['generations' => [$the => range(100000, 0)]])['pages']) > 0);

/* malformed word structs */
foreach ([[], ['KEYS' => []], ['KEYS' => 'x'], ['KEYS' => [1]], ['KEYS' => ['a', 'b'], 'QUOTE_POSITIONS' => [[0 => -1]]],
          ['KEYS' => ['a', 'b'], 'QUOTE_POSITIONS' => array_fill(0, 65, [])],
          ['KEYS' => ['a', 'b'], 'QUOTE_POSITIONS' => ['x']], ['KEYS' => ['a', 'b'], 'WEIGHT' => 'heavy'],
          ['KEYS' => array_fill(0, 65, 'a')], ['KEYS' => ['a', 'b'], 'DISALLOW_KEYS' => 'c']] as $bad) {
    try { $ix->yioopSearch($bad); echo "accepted\n"; } catch (TypeError|ValueError $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
}
foreach ([['to_retrieve' => 0], ['generations' => 1], ['generations' => ['a' => [-1]]], ['what' => 1]] as $bad) {
    try { $ix->yioopSearch(['KEYS' => ['a', 'b']], $bad); echo "accepted\n"; } catch (TypeError|ValueError $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
}
try {
    (new GpuPost\Index(['t' => [1 => [1, 2]]], GPUPOST_POSTINGS))->yioopSearch(['KEYS' => ['t', 't']]);
} catch (Error $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
gp_remove_tree($tmp);
?>
--EXPECTF--
%d queries compared: %d equal (%d ranked pages; %d with negated words, %d quoted, %d of %d disjunctions), %d walked whole
every generation: Yioop's matches all found for %d queries
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
array(0) {
}
bool(true)
array(0) {
}
int(0)
bool(true)
bool(false)
bool(false)
bool(true)
ValueError: GpuPost\Index::yioopSearch(): Argument #1 ($wordStruct) must be a word struct or a list of 1 to 64 of them
ValueError: GpuPost\Index::yioopSearch(): Argument #1 ($wordStruct) must hold at least one of KEYS
ValueError: GpuPost\Index::yioopSearch(): Argument #1 ($wordStruct) must hold KEYS, a list of word ids
TypeError: GpuPost\Index::yioopSearch(): Argument #1 ($wordStruct) must hold KEYS as word id strings, int given
ValueError: GpuPost\Index::yioopSearch(): Argument #1 ($wordStruct) must hold QUOTE_POSITIONS' lengths as non-negative ints or "*"
ValueError: GpuPost\Index::yioopSearch(): Argument #1 ($wordStruct) must hold at most 64 quotes
TypeError: GpuPost\Index::yioopSearch(): Argument #1 ($wordStruct) must hold QUOTE_POSITIONS as arrays, string given
TypeError: GpuPost\Index::yioopSearch(): Argument #1 ($wordStruct) must hold WEIGHT as a number or a numeric string, string given
ValueError: GpuPost\Index::yioopSearch(): Argument #1 ($wordStruct) must hold at most 64 KEYS
TypeError: GpuPost\Index::yioopSearch(): Argument #1 ($wordStruct) must hold DISALLOW_KEYS as an array, string given
ValueError: GpuPost\Index::yioopSearch(): Argument #2 ($options) option 'to_retrieve' must be an int from 1 to 1000000
TypeError: GpuPost\Index::yioopSearch(): Argument #2 ($options) option 'generations' must be an array, int given
ValueError: GpuPost\Index::yioopSearch(): Argument #2 ($options) option 'generations' must hold generations as non-negative ints
ValueError: GpuPost\Index::yioopSearch(): Argument #2 ($options) %s
Error: GpuPost\Index::yioopSearch(): the index was not opened by openYioopBundle()
