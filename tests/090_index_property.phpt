--TEST--
GpuPost\Index property test: random small indexes of every format (MOD9, S9, QS; empty lists, equal docs in a row merged, doc 0, 2^32 - 2, postings without positions) and random queries of every operator (AND, OR, phrases up to 8 places; repeated and unknown terms; every match, the top k, counts, batches), on the host and on the device with lists kept decoded and compressed, each answer equal to a plain PHP reference of the operators' definitions
--EXTENSIONS--
gpupost
--INI--
memory_limit=1G
--ENV--
GPUPOST_TOPK_TILE=64
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
mt_srand(90);
/* GPUPOST_TOPK_TILE=64: the device selects a ranked query's top 1 in tiles of 64 candidates (a
 * larger k: one tile a query), as it does large queries' top k in tiles of 16k */

/* A doc the format holds: mostly few and small, some far (MOD9's separate form holds docs
 * below 2^27 - 1; S9 28-bit first docs and gaps; QS any 32-bit doc). */
function rand_doc(int $format): int {
    $k = mt_rand(0, 15);
    if ($k < 12) return mt_rand(0, 30);
    if ($format === GPUPOST_MOD9) return [32768, 32769, (1 << 27) - 2][mt_rand(0, 2)];
    if ($format === GPUPOST_S9) return [(1 << 28) - 1, 1 << 20][mt_rand(0, 1)];
    return [0xFFFFFFFE, 0xFFFFFFFD, 1 << 31][mt_rand(0, 2)];
}

/* One term: [blob, reference [doc => sorted distinct positions]]. Docs non-decreasing; a doc
 * given twice in a row is one document, its positions merged. */
function rand_list(int $format): array {
    $n = mt_rand(0, 4) === 0 ? 0 : mt_rand(1, 12);
    $docs = [];
    for ($i = 0; $i < $n; $i++) $docs[] = rand_doc($format);
    sort($docs);
    $ref = [];
    if ($format !== GPUPOST_MOD9) {
        if ($format === GPUPOST_S9 && $docs && $docs[0] >= 1 << 28) $docs = [];
        foreach ($docs as $d) $ref[$d] = [];
        return [gpu_encode_postings($docs, $format, GPUPOST_VALUES, $format === GPUPOST_S9 ? ['delta' => 1] : []), $ref];
    }
    $blob = '';
    foreach ($docs as $d) {
        $pos = [];
        $p = 0;
        for ($j = mt_rand(0, 4); $j > 0; $j--) $pos[] = $p += mt_rand(1, 3);
        /* each posting its own blob: MOD9 docs are absolute, so blobs concatenate */
        $blob .= gpu_encode_postings([$d => $pos], GPUPOST_MOD9, GPUPOST_POSTINGS, ['combined' => false]);
        $ref[$d] = array_values(array_unique(array_merge($ref[$d] ?? [], $pos)));
        sort($ref[$d]);
    }
    return [$blob, $ref];
}

/* The reference: docs increasing, or the top k [doc => score] (BM25 as API.md defines it,
 * place by place in the query's order), or the count. */
function ref_answer(array $ref, array $terms, int $op, int $limit, array $len, float $k1, float $b): array {
    $cand = [];
    foreach ($terms as $t) foreach ($ref[$t] ?? [] as $d => $_) $cand[$d] = true;
    ksort($cand);
    $out = [];
    foreach ($cand as $d => $_) {
        $in = 0;
        foreach ($terms as $t) $in += isset($ref[$t][$d]);
        if ($op === GPUPOST_OR ? $in === 0 : $in < count($terms)) continue;
        if ($op === GPUPOST_PHRASE) {
            $found = false;
            foreach ($ref[$terms[0]][$d] as $s) {
                $ok = true;
                foreach ($terms as $j => $t) if (!in_array($s + $j, $ref[$t][$d], true)) { $ok = false; break; }
                if ($found = $ok) break;
            }
            if (!$found) continue;
        }
        $out[$d] = 0.0;
    }
    if ($limit === 0) return array_keys($out);
    $n = count($len);
    $avg = array_sum($len) / $n;
    foreach ($out as $d => &$s) {
        foreach ($terms as $t) {
            if (!isset($ref[$t][$d])) continue;
            $df = count($ref[$t]);
            $idf = log(($n - $df + 0.5) / ($df + 0.5));
            if ($idf <= 0.0) $idf = 1e-6;
            $tf = max(1, count($ref[$t][$d]));
            $s += $idf * (($tf * ($k1 + 1.0)) / ($tf + $k1 * (1 - $b + $b * $len[$d] / $avg)));
        }
    }
    unset($s);
    uksort($out, fn($x, $y) => $out[$y] <=> $out[$x] ?: $x <=> $y);
    return array_slice($out, 0, $limit, true);
}

$layouts = ['host' => ['device' => 'host']];
if (gp_device_available()) {
    $layouts['device, decoded lists'] = ['device' => 'cpu', 'device_lists' => 'decoded'];
    $layouts['device, compressed lists'] = ['device' => 'cpu', 'device_lists' => 'compressed'];
}
$names = ['a', 'b', 'c', 'd', 'e', 'f'];
$checked = 0;
$bad = 0;
foreach ([GPUPOST_MOD9, GPUPOST_S9, GPUPOST_QS] as $format) {
    for ($round = 0; $round < 60; $round++) {
        $lists = $ref = [];
        $nt = mt_rand(1, 6);
        for ($t = 0; $t < $nt; $t++) [$lists[$names[$t]], $ref[$names[$t]]] = rand_list($format);
        /* lengths for every doc of the lists (and a few others: N counts them), when the table
         * by doc stays small */
        $len = [];
        foreach ($ref as $l) foreach ($l as $d => $_) $len[$d] = mt_rand(1, 60);
        for ($i = mt_rand(0, 2); $i > 0; $i--) $len += [mt_rand(0, 40) => mt_rand(1, 60)];
        $ranked = $len && max(array_keys($len)) < (1 << 20);
        $k1 = mt_rand(0, 3) ? 1.2 : mt_rand(0, 300) / 100;
        $b = mt_rand(0, 3) ? 0.75 : mt_rand(0, 10) / 10;
        $opts = $ranked ? ['doc_lengths' => $len, 'k1' => $k1, 'b' => $b] : [];
        /* queries: repeated and unknown terms ('zz'), phrases up to 8 places */
        $ops = $format === GPUPOST_MOD9 ? [GPUPOST_AND, GPUPOST_OR, GPUPOST_PHRASE] : [GPUPOST_AND, GPUPOST_OR];
        $op = $ops[mt_rand(0, count($ops) - 1)];
        $limit = $ranked && $op !== GPUPOST_PHRASE && mt_rand(0, 1) ? mt_rand(1, 6) : 0;
        $queries = [];
        for ($q = mt_rand(1, 8); $q > 0; $q--) {
            $terms = [];
            for ($i = mt_rand(1, $op === GPUPOST_PHRASE ? 8 : 5); $i > 0; $i--) {
                $terms[] = mt_rand(0, 9) === 0 ? 'zz' : $names[mt_rand(0, $nt - 1)];
            }
            $queries["q$q"] = $terms;
        }
        /* an unknown term empties an AND or a phrase, and adds nothing to an OR */
        $answer = function (array $terms, int $limit) use ($ref, $op, $len, $k1, $b): array {
            $known = array_values(array_filter($terms, fn($t) => isset($ref[$t])));
            if ($op === GPUPOST_OR) return $known ? ref_answer($ref, $known, $op, $limit, $len, $k1, $b) : [];
            return count($known) < count($terms) ? [] : ref_answer($ref, $terms, $op, $limit, $len, $k1, $b);
        };
        $want = array_map(fn($terms) => $answer($terms, $limit), $queries);
        foreach ($layouts as $name => $layout) {
            $ix = new GpuPost\Index($lists, $format, $layout + $opts);
            $got = $ix->searchBatch($queries, ['op' => $op, 'limit' => $limit]);
            $one = $ix->search(reset($queries), ['op' => $op, 'limit' => $limit]);
            $count = $ix->count(reset($queries), ['op' => $op]);
            $ok = $limit ? array_keys($got) === array_keys($want) : $got === $want;
            foreach ($limit ? $want : [] as $k => $w) $ok = $ok && array_keys($got[$k]) === array_keys($w) && close_to($got[$k], $w);
            $first = $want[array_key_first($queries)];
            $ok = $ok && ($limit ? array_keys($one) === array_keys($first) : $one === $first);
            $ok = $ok && $count === count($answer(reset($queries), 0));
            /* the device answers every batch that reads a posting (count() too) */
            $reads = array_sum(array_map(fn($t) => count($ref[$t] ?? []), reset($queries)));
            $ok = $ok && ($name === 'host' || !$reads || $ix->info()['last_backend'] === 'opencl');
            $checked++;
            if (!$ok && $bad++ < 5) {
                echo "$name, format $format, op $op, limit $limit: differs\n";
                echo "  lists ", json_encode($ref), "\n  queries ", json_encode($queries), "\n";
                echo "  got ", json_encode($got), "\n  want ", json_encode($want), "\n";
            }
        }
    }
}
echo "checked ", $checked >= 180 ? "at least 180" : $checked, " answers of random indexes, $bad differ\n";
?>
--EXPECT--
checked at least 180 answers of random indexes, 0 differ
