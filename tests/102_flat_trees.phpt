--TEST--
Query trees that are plain lists of terms (a term, an AND or an OR of distinct terms) go the way lists of terms go (the flat walk, the device): the same docs, top 10 (scores to 1e-9) and counts as the tree walk gives them, on the host and the device; trees of other shapes go to the device's tree kernel, ranked too, but for prefixes; totals beside pages too
--EXTENSIONS--
gpupost
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
require __DIR__ . '/../demo/corpus.php';
mt_srand(102);
[$files, $index, , , $lengths] = demo_corpus(200);
$ix = new GpuPost\Index($index, GPUPOST_POSTINGS, ['doc_lengths' => $lengths]);
$words = array_keys(array_filter($index, fn($l) => count($l) >= 2));
$pick = fn() => $words[mt_rand(0, count($words) - 1)];

/* the host's tree walk of the same query ('total' is an option only trees take; the device kept
 * out by its threshold), for comparison */
function walked(GpuPost\Index $ix, $q, array $o): array
{
    $was = ini_get('gpupost.min_device_values');
    ini_set('gpupost.min_device_values', (string)PHP_INT_MAX);
    $r = $ix->search($q, $o + ['total' => true])['results'];
    $ran = gpu_info()['last_backend'];
    ini_set('gpupost.min_device_values', $was);
    if ($ran !== 'host') throw new RuntimeException("the walk ran on $ran");
    return $r;
}
function same_ranked(array $a, array $b): bool
{
    if (array_keys($a) !== array_keys($b)) return false;
    foreach ($a as $d => $s) if (abs($s - $b[$d]) > 1e-9 * max(1.0, abs($s))) return false;
    return true;
}

$bad = 0;
$ran = ['host' => 0, 'device' => 0];
for ($i = 0; $i < 300; $i++) {
    $n = mt_rand(1, 5);
    $terms = [];
    while (count($terms) < $n) $terms[$pick()] = true;
    $terms = array_keys($terms);
    $or = mt_rand(0, 1) === 1;
    $string = '"' . implode($or ? '" OR "' : '" "', $terms) . '"';
    $array = array_merge([$or ? 'or' : 'and'], $terms);
    $path = $i % 2 ? 'device' : 'host';
    foreach ([[$string, []], [$array, ['tree' => true]]] as [$q, $o]) {
        $docs = gp_on($path, fn() => $ix->search($q, $o));
        $top = gp_on($path, fn() => $ix->search($q, $o + ['limit' => 10]));
        $count = gp_on($path, fn() => $ix->count($q, $o));
        $ran[gpu_info()['last_backend'] === 'opencl' ? 'device' : 'host']++;
        $ok = $docs === walked($ix, $q, $o) && same_ranked($top, walked($ix, $q, $o + ['limit' => 10])) && $count === count($docs)
            && $docs === $ix->search($terms, ['op' => $or ? GPUPOST_OR : GPUPOST_AND]);
        if (!$ok && $bad++ < 3) echo "differs: ", json_encode($q), "\n";
    }
}
echo "$bad of 1200 flat trees differ from the tree walk\n";
echo "the device answered plain trees: ", $ran['device'] > 0 || !gp_device_available() ? 'yes (or no device)' : 'no', "\n";

/* other shapes, ranked: the device's tree kernel where there is one (tests/096 and 098 compare
 * its answers with FTS5's), a prefix and a tree asked for its total with the host's walk */
ini_set('gpupost.min_device_values', '0');
$on_device = fn() => gpu_info()['last_backend'] === 'opencl' || !gp_device_available() ? 'the device (or no device)' : 'the host';
$a = $pick();
do { $b = $pick(); } while ($b === $a);
foreach (["\"$a $b\"", "\"$a\" NOT \"$b\"", "\"$a\" \"$a\"", "\"$a\" OR (\"$a\" \"$b\")", "^\"$a\"", "NEAR(\"$a\" \"$b\")"] as $q) {
    $top = $ix->search($q, ['limit' => 10]);
    echo str_replace([$a, $b], ['A', 'B'], $q), ': ', $on_device(), ', ', same_ranked($top, walked($ix, $q, ['limit' => 10])) ? 'equal' : 'differs', "\n";
}
$ix->search('"' . substr($a, 0, 2) . '"*', ['limit' => 10]);
echo 'a prefix: ', gpu_info()['last_backend'], "\n";
/* a page and its total: the device counts every match beside the page (ranked: a second batch) */
foreach ([['limit' => 3, 'offset' => 2], []] as $o) {
    $q = "\"$a\" OR \"$b\" NOT \"$a $b\"";
    $page = $ix->search($q, $o + ['total' => true]);
    $where = $on_device();
    ini_set('gpupost.min_device_values', (string)PHP_INT_MAX);
    $host = $ix->search($q, $o + ['total' => true]);
    ini_set('gpupost.min_device_values', '0');
    echo 'a total', $o ? ' beside a page' : '', ': ', $where, ', ', $page['total'] === $ix->count($q) && $page['total'] === $host['total'] && same_ranked($page['results'], $host['results']) ? 'equal' : 'differs', "\n";
}
/* a batch of an AND and an OR is not one list's operator: answered as trees */
$batch = $ix->searchBatch(['x' => "\"$a\" \"$b\"", 'y' => "\"$a\" OR \"$b\""], ['limit' => 10]);
echo 'mixed batch: ', $on_device(), ', ', same_ranked($batch['x'], walked($ix, "\"$a\" \"$b\"", ['limit' => 10])) && same_ranked($batch['y'], walked($ix, "\"$a\" OR \"$b\"", ['limit' => 10])) ? 'equal' : 'differs', "\n";

/* edges an adversarial review found: ^ where a posting's positions start below 1 (its IDF counts
 * the docs that hold the word at position 1 anywhere), column weights so small that scores round
 * to 0 (still matches, on the device too), a ranked batch past the device's buffers under a small
 * max_result_bytes (smaller chunks; the host's answers) */
$w = array_values(unpack('N*', gpu_encode_postings([40000 => [1, 2]], GPUPOST_MOD9, GPUPOST_POSTINGS)));
$w[0] -= 1;   /* doc 40000's positions [0, 1]: MOD9's combined form, its first gap 0 */
$la = pack('N*', ...$w) . gpu_encode_postings([40001 => [1, 3], 40002 => [2]], GPUPOST_MOD9, GPUPOST_POSTINGS);
$lb = gpu_encode_postings([40000 => [2], 40001 => [2], 40002 => [1], 40003 => [1]], GPUPOST_MOD9, GPUPOST_POSTINGS);
$len = [40000 => 3, 40001 => 3, 40002 => 2, 40003 => 1];
$got = [];
foreach (['host', 'gpu'] as $place) {
    $small = new GpuPost\Index(['a' => $la, 'b' => $lb], GPUPOST_MOD9, ['doc_lengths' => $len, 'device' => $place]);
    $got[$place] = [$small->search(['and', ['initial', 'a'], 'b'], ['tree' => true, 'limit' => 5]), $small->search(['initial', 'a'], ['tree' => true, 'limit' => 5])];
}
$alone = $got['host'][1];
echo "^ over positions from 0: ", $got['host'] == $got['gpu'] && count($alone) == 2 && abs($got['host'][0][40000] - 2 * $alone[40000]) < 1e-15 ? 'one IDF, on the host and the device' : 'differs: ' . json_encode($got), "\n";
$rows = [0 => ['t' => 'a b', 'u' => 'c'], 1 => ['t' => 'c', 'u' => 'a a'], 2 => ['t' => 'b', 'u' => 'b'], 3 => ['t' => 'a', 'u' => 'a b']];
$tiny = [];
foreach (['host', 'gpu'] as $place) {
    $cix = GpuPost\Index::fromDocuments($rows, ['device' => $place]);
    foreach ([5e-324, 0.0] as $wt) $tiny[$place][] = $cix->search('"a" OR "c"', ['limit' => 10, 'weights' => ['t' => $wt, 'u' => $wt]]);
    $tiny[$place][] = $cix->info()['last_backend'];
}
echo "weights of 5e-324 and 0: ", $tiny['host'][0] === $tiny['gpu'][0] && $tiny['host'][1] === $tiny['gpu'][1] && count($tiny['host'][0]) == 3 && count($tiny['host'][1]) == 3
    && $tiny['gpu'][2] === (gp_device_available() ? 'opencl' : 'host') ? 'the same three matches, the device answering' : 'differs: ' . json_encode($tiny), "\n";
ini_set('gpupost.max_result_bytes', '3M');
$many = array_fill(0, 3000, "NEAR(\"$a\" \"$b\", 3) OR \"$a\"");
$dev_answers = $ix->searchBatch($many, ['limit' => 5]);
ini_restore('gpupost.max_result_bytes');
echo "a ranked batch under a small max_result_bytes: ", $dev_answers[2999] == walked($ix, $many[0], ['limit' => 5]) ? 'answered' : 'differs', "\n";
?>
--EXPECT--
0 of 1200 flat trees differ from the tree walk
the device answered plain trees: yes (or no device)
"A B": the device (or no device), equal
"A" NOT "B": the device (or no device), equal
"A" "A": the device (or no device), equal
"A" OR ("A" "B"): the device (or no device), equal
^"A": the device (or no device), equal
NEAR("A" "B"): the device (or no device), equal
a prefix: host
a total beside a page: the device (or no device), equal
a total: the device (or no device), equal
mixed batch: the device (or no device), equal
^ over positions from 0: one IDF, on the host and the device
weights of 5e-324 and 0: the same three matches, the device answering
a ranked batch under a small max_result_bytes: answered
