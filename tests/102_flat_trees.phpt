--TEST--
Query trees that are plain lists of terms (a term, an AND or an OR of distinct terms) go the way lists of terms go (the flat walk, the device): the same docs, top 10 (scores to 1e-9) and counts as the tree walk gives them, on the host and the device; ranked trees of any other shape stay with the tree walk on the host
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

/* 'total' is an option only the tree walk takes: the same tree through it, for comparison */
function walked(GpuPost\Index $ix, $q, array $o): array
{
    return $ix->search($q, $o + ['total' => true])['results'];
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

/* other shapes ranked: the tree walk on the host even where every query is sent to the device
 * (unranked, the device's tree kernel takes them: tests/096, 098) */
ini_set('gpupost.min_device_values', '0');
$device = gp_device_available() ? 'opencl' : 'host';
$a = $pick();
do { $b = $pick(); } while ($b === $a);
foreach (["\"$a $b\"", "\"$a\" NOT \"$b\"", "\"$a\" \"$a\"", "\"$a\" OR (\"$a\" \"$b\")", "\"" . substr($a, 0, 2) . "\"*", "^\"$a\"", "NEAR(\"$a\" \"$b\")"] as $q) {
    $ix->search($q, ['limit' => 10]);
    echo str_replace([$a, $b, substr($a, 0, 2)], ['A', 'B', 'P'], $q), ': ', gpu_info()['last_backend'], "\n";
}
/* a plain AND ranked goes as a list (the device, where there is one) */
$ix->search("\"$a\" \"$b\"", ['limit' => 10]);
echo 'plain AND ranked: ', gpu_info()['last_backend'] === $device ? 'as a list' : 'not as a list', "\n";
/* a batch of an AND and an OR is not one list's operator: the tree walk answers both */
$batch = $ix->searchBatch(['x' => "\"$a\" \"$b\"", 'y' => "\"$a\" OR \"$b\""], ['limit' => 10]);
echo 'mixed batch: ', gpu_info()['last_backend'], ', ', $batch['x'] == walked($ix, "\"$a\" \"$b\"", ['limit' => 10]) && $batch['y'] == walked($ix, "\"$a\" OR \"$b\"", ['limit' => 10]) ? 'equal' : 'differs', "\n";
?>
--EXPECT--
0 of 1200 flat trees differ from the tree walk
the device answered plain trees: yes (or no device)
"A B": host
"A" NOT "B": host
"A" "A": host
"A" OR ("A" "B"): host
"P"*: host
^"A": host
NEAR("A" "B"): host
plain AND ranked: as a list
mixed batch: host, equal
