--TEST--
GpuPost\Index built by several threads (GPUPOST_BUILD_THREADS): the same index as one thread builds, byte for byte when saved, merged lists included; the first bad list named whichever thread finds it
--EXTENSIONS--
gpupost
--INI--
memory_limit=1G
--FILE--
<?php
mt_srand(89);
function check(string $what, bool $ok): void { if (!$ok) echo "FAILED: $what\n"; }

/* MOD9 lists of random postings; every fifth is two blobs end to end whose boundary doc is the
 * same (the index merges the two postings: positions sorted, each once) */
function postings(int $n, int $span): array {
    $docs = [];
    for ($i = 0; $i < $n; $i++) {
        $pos = [];
        for ($p = 0, $k = mt_rand(1, 5); $k > 0; $k--) $pos[] = $p += mt_rand(1, 40);
        $docs[mt_rand(0, $span)] = $pos;
    }
    ksort($docs);
    return $docs;
}
$mod9 = $reference = [];
for ($t = 0; $t < 120; $t++) {
    $a = postings(mt_rand(1, $t % 17 == 0 ? 3000 : 200), 20000);
    $blob = gpu_encode_postings($a, GPUPOST_MOD9, GPUPOST_POSTINGS);
    if ($t % 5 == 0) {
        $last = array_key_last($a);
        $b = [$last => [mt_rand(1, 30), 31 + mt_rand(0, 30)]] + [$last + 1 + mt_rand(0, 5) => [7]];
        $blob .= gpu_encode_postings($b, GPUPOST_MOD9, GPUPOST_POSTINGS);
        $a[$last] = array_values(array_unique(array_merge($a[$last], $b[$last])));
        sort($a[$last]);
        foreach (array_slice($b, 1, null, true) as $d => $p) $a[$d] = $p;
    }
    $mod9["m$t"] = $blob;
    $reference["m$t"] = $a;
}
$s9 = [];
for ($t = 0; $t < 90; $t++) {
    $docs = [];
    for ($d = mt_rand(0, 9), $n = mt_rand(0, 4000); $n > 0; $n--) $docs[] = $d += mt_rand($t % 3 ? 1 : 0, 60);
    $s9["s$t"] = gpu_encode_postings($docs, GPUPOST_S9);   /* equal docs in a row where $t % 3 == 0 */
}

function build(array $lists, int $format, int $threads): GpuPost\Index {
    putenv("GPUPOST_BUILD_THREADS=$threads");
    $ix = new GpuPost\Index($lists, $format, ['device' => 'host']);
    putenv('GPUPOST_BUILD_THREADS');
    return $ix;
}
function saved(GpuPost\Index $ix): string {
    $f = tempnam(sys_get_temp_dir(), 'gp89');
    $ix->save($f);
    $bytes = file_get_contents($f);
    unlink($f);
    return $bytes;
}
function answers(GpuPost\Index $ix, array $terms, bool $phrases): array {
    $out = [];
    foreach ($terms as $i => $t) {
        $u = $terms[($i * 7 + 3) % count($terms)];
        $out[] = $ix->search([$t]);
        $out[] = $ix->search([$t, $u]);
        $out[] = $ix->search([$t, $u], ['op' => GPUPOST_OR]);
        if ($phrases) $out[] = $ix->search([$t, $u], ['op' => GPUPOST_PHRASE]);
    }
    return $out;
}

foreach ([[$mod9, GPUPOST_MOD9, true], [$s9, GPUPOST_S9, false]] as [$lists, $format, $phrases]) {
    $one = build($lists, $format, 1);
    $info = $one->info();
    $file = saved($one);
    $want = answers($one, array_keys($lists), $phrases);
    foreach ([2, 4, 16] as $threads) {
        for ($round = 0; $round < 2; $round++) {
            $many = build($lists, $format, $threads);
            check("format $format, $threads threads: info", $many->info() === $info);
            check("format $format, $threads threads: saved file", saved($many) === $file);
            check("format $format, $threads threads: answers", answers($many, array_keys($lists), $phrases) === $want);
        }
    }
    echo "format $format: ", $info['postings'], " postings, same from 1, 2, 4 and 16 threads\n";
}

/* distinct docs counted by workers, each a run of blocks of 2^21 docs: long lists over 2^24 docs */
$wide = $seen = [];
foreach ([97, 101, 103, 107, 109] as $k => $step) {
    $docs = range($k * 13, (1 << 24) - 1, $step);
    $wide["w$k"] = gpu_encode_postings($docs, GPUPOST_S9);
    foreach ($docs as $d) $seen[$d] = true;
}
foreach ([1, 3, 8, 16] as $threads) check("distinct docs, $threads threads", build($wide, GPUPOST_S9, $threads)->info()['docs'] === count($seen));
echo "distinct docs of ", count($wide), " long lists: as PHP counts them, from 1 to 16 threads\n";
unset($seen);

/* the index against the lists it was given (merged postings as the reference merged them) */
$ix = build($mod9, GPUPOST_MOD9, 4);
foreach ($reference as $term => $docs) {
    check("$term docs", $ix->search([$term]) === array_keys($docs));
    foreach ($docs as $d => $pos) {
        /* a one-position phrase of the term with itself shifted: the doc matches where the term occurs twice in a row */
        $twice = false;
        for ($i = 1; $i < count($pos); $i++) $twice = $twice || $pos[$i] == $pos[$i - 1] + 1;
        check("$term doc $d phrase", in_array($d, $ix->search([$term, $term], ['op' => GPUPOST_PHRASE]), true) === $twice);
    }
}
echo "4 threads: every list's docs and positions as given\n";

/* the first bad list is named, whichever thread meets a bad list first: a blob that breaks its
 * format (found when the lists are measured), docs that fall (found when they are decoded) */
$bad = $mod9;
$bad['m7'] = substr($bad['m7'], 0, -2);
$bad['m90'] = "\xff\xff\xff\xff";
$falling = $s9;
$falling['s11'] = gpu_encode_postings([9, 5], GPUPOST_S9, GPUPOST_VALUES, ['delta' => 0]);
$falling['s70'] = gpu_encode_postings([50, 40], GPUPOST_S9, GPUPOST_VALUES, ['delta' => 0]);
$both = $falling;
$both['s80'] = 'not an S9 blob';
/* a bad list that takes long to find before one that is found at once: the earlier is named */
$long = [];
for ($d = 0, $i = 0; $i < 300000; $i++) $long[$d += mt_rand(1, 9)] = [1];
$slow = ['a' => $mod9['m1'], 'b' => gpu_encode_postings($long, GPUPOST_MOD9, GPUPOST_POSTINGS) . "\x80\x00\x00\x01", 'c' => "\x80\x00\x00\x01"];
$long = array_keys($long);
$slow_s9 = ['a' => $s9['s1'], 'b' => gpu_encode_postings(array_merge($long, [1]), GPUPOST_S9, GPUPOST_VALUES, ['delta' => 0]),
            'c' => gpu_encode_postings([9, 5], GPUPOST_S9, GPUPOST_VALUES, ['delta' => 0])];
foreach ([[$bad, GPUPOST_MOD9], [$falling, GPUPOST_S9], [$both, GPUPOST_S9], [$slow, GPUPOST_MOD9], [$slow_s9, GPUPOST_S9]] as [$lists, $format]) {
    $seen = [];
    foreach ([1, 2, 4, 16, 4, 2, 16] as $threads) {
        try {
            build($lists, $format, $threads);
            $seen[] = 'built';
        } catch (GpuPost\Exception $e) {
            $seen[] = $e->getMessage();
        }
    }
    check('one message from every thread count', count(array_unique($seen)) === 1);
    echo $seen[0], "\n";
}
?>
--EXPECTF--
format 1: %d postings, same from 1, 2, 4 and 16 threads
format 2: %d postings, same from 1, 2, 4 and 16 threads
distinct docs of 5 long lists: as PHP counts them, from 1 to 16 threads
4 threads: every list's docs and positions as given
%sm7%s
%ss11%s
%ss80%s
%sterm 'b'%s
%sterm 'b'%s
