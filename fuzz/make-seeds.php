<?php
/* Writes the fuzzing seeds (fuzz/seeds/<format>/) from the test vectors and a few encoded lists.
 * Run once with the extension loaded; the seeds are committed. */
$dir = __DIR__ . '/seeds';
$seeds = [
    'mod9' => [
        hex2bin('3c0014e5'), hex2bin('104b1388'), hex2bin('fc053977b484a96cb034e3d0b04524d4b05565d870000019'),
        hex2bin('ffffffff7f000001'), hex2bin('3f000001'), hex2bin('3c000c5f'), hex2bin('c93882597f000001'),
        hex2bin('09000005'), hex2bin('c000800078000007'), hex2bin('3c000113f8b111117f1fffff30000328'),
        gpu_encode_postings(range(1, 300)), gpu_encode_postings([7 => [1, 2, 900], 40000 => [3]], GPUPOST_MOD9, GPUPOST_POSTINGS),
    ],
    's9' => [
        gpu_encode_postings([1, 2, 3], GPUPOST_S9), gpu_encode_postings(array_fill(0, 30, 1), GPUPOST_S9),
        gpu_encode_postings([10, 12, 12, 20], GPUPOST_S9, GPUPOST_VALUES, ['delta' => 1]),
        gpu_encode_postings([0, 1, 5, 100000], GPUPOST_S9, GPUPOST_VALUES, ['delta' => 2]),
        gpu_encode_postings([], GPUPOST_S9),
    ],
    'qs' => [
        gpu_encode_postings([3, 4, 7, 13, 14, 15, 21, 43], GPUPOST_QS),
        gpu_encode_postings([3, 4, 7, 13, 14, 15, 21, 43], GPUPOST_QS, GPUPOST_VALUES, ['c' => 0.5]),
        gpu_encode_postings([0, 0, 1, 2], GPUPOST_QS), gpu_encode_postings([4294967295], GPUPOST_QS),
        gpu_encode_postings([], GPUPOST_QS), gpu_encode_postings(range(0, 3000, 7), GPUPOST_QS),
    ],
    'wah' => [
        gpu_encode_postings([0, 1, 31, 32], GPUPOST_WAH, GPUPOST_VALUES, ['nbits' => 64]),
        gpu_encode_postings(range(0, 61), GPUPOST_WAH, GPUPOST_VALUES, ['nbits' => 93]),
        gpu_encode_postings([100], GPUPOST_WAH), gpu_encode_postings([1000], GPUPOST_WAH, GPUPOST_VALUES, ['word_bits' => 64]),
        gpu_encode_postings([0, 63, 64], GPUPOST_WAH, GPUPOST_VALUES, ['word_bits' => 64, 'nbits' => 127]),
        gpu_encode_postings(array_merge(range(5, 400), [3000]), GPUPOST_WAH),
    ],
];
/* VBYTE and GROUP_VARINT: the same lists in both, every delta rule, values of one to five bytes */
mt_srand(19);
$gaps = [];
for ($i = 0, $x = 0; $i < 300; $i++) $gaps[] = $x += mt_rand(0, 300);
$increasing = [];
for ($i = 0, $x = 0; $i < 100; $i++) $increasing[] = $x += mt_rand(1, 21);
foreach (['vbyte' => GPUPOST_VBYTE, 'gvarint' => GPUPOST_GROUP_VARINT] as $name => $f) {
    $seeds[$name] = [
        gpu_encode_postings([80, 320], $f), gpu_encode_postings([], $f), gpu_encode_postings([0, 0, 0], $f),
        gpu_encode_postings(range(1, 40), $f), gpu_encode_postings([4294967295, 1, 128, 16384, 2097152, 268435456], $f),
        gpu_encode_postings($gaps, $f, GPUPOST_VALUES, ['delta' => 1]),
        gpu_encode_postings($increasing, $f, GPUPOST_VALUES, ['delta' => 2]),
    ];
}
/* index files in both versions, each twice: as it is (first byte 0) and to have its checksums
 * made right (1); version 2 also read in place (bit 2) */
$files = [
    new GpuPost\Index(['a' => [1 => [1, 2], 5 => [3]], 'b' => [1 => [3], 9 => [1]], 'c' => [5 => [4]]], GPUPOST_POSTINGS),
    new GpuPost\Index(['x' => gpu_encode_postings([0, 4, 9], GPUPOST_S9, GPUPOST_VALUES, ['delta' => 1]), 'y' => gpu_encode_postings([4, 5], GPUPOST_S9)], GPUPOST_S9),
    new GpuPost\Index(['q' => gpu_encode_postings([3, 4, 7], GPUPOST_QS), 'r' => gpu_encode_postings([7], GPUPOST_QS)], GPUPOST_QS),
    new GpuPost\Index([], GPUPOST_QS),
    /* ranked, lists of several blocks (128 postings a block), postings without positions */
    new GpuPost\Index(['l' => array_fill_keys(range(0, 598, 2), [1, 4]), 'm' => array_fill_keys(range(0, 299, 3), []), 'n' => [7 => [2]]],
        GPUPOST_POSTINGS, ['doc_lengths' => array_fill(0, 600, 9)]),
    /* documents in columns (section 9) */
    GpuPost\Index::fromDocuments([0 => ['title' => 'Free software', 'body' => 'the free software foundation'], 3 => ['title' => 'GPL', 'body' => 'a license']]),
    /* attributes (section 10) */
    GpuPost\Index::fromDocuments([0 => 'free software', 2 => 'gpl license'], ['attributes' => ['year' => [0 => 2001, 2 => 2024], 'rank' => [2 => 0.5]], 'tokenizer' => 'porter']),
];
$seeds['index'] = [];
$tmp = tempnam(sys_get_temp_dir(), 'gpix');
foreach ($files as $ix) {
    foreach ([1, 2] as $version) {
        $ix->save($tmp, ['version' => $version]);
        foreach ($version === 2 ? ["\0", "\1", "\4", "\5"] : ["\0", "\1"] as $flag) $seeds['index'][] = $flag . file_get_contents($tmp);
    }
}
unlink($tmp);
/* Yioop IndexShard files (FORMATS.md section 6; first byte 2): a dictionary of 20-byte word
 * ids, each list a run of the postings, doc records of four keys (48 bytes: doc index + 3) */
function yioop_shard(array $lists, int $docs): string
{
    ksort($lists, SORT_STRING);
    $dict = $postings = $records = '';
    foreach ($lists as $id => $list) {
        $blob = gpu_encode_postings($list, GPUPOST_MOD9, GPUPOST_POSTINGS);
        $dict .= str_pad($id, 20, "\0") . pack('N3', 0, strlen($postings), strlen($blob));
        $postings .= $blob;
    }
    for ($d = 0; $d < $docs; $d++) $records .= pack('N2', 100 + $d, (7 + $d) << 8 | 4) . str_repeat(chr($d), 40);
    $prefixes = str_repeat("\xff", 64);
    return pack('N10', strlen($prefixes), strlen($dict), strlen($postings), strlen($records), 0, 40000, $docs, 0, 100, 0)
        . $prefixes . $dict . $postings . $records;
}
$seeds['index'][] = "\2" . yioop_shard(['a' => [0 => [1, 2], 3 => [3]], 'b' => [3 => [1], 9 => []], 'c' => [6 => [4, 9, 30]]], 4);
$seeds['index'][] = "\2" . yioop_shard(['w' => [0 => [1]]], 1);
/* the same as a Yioop bundle's generations (first byte 10), and a bundle's generation.txt */
$seeds['index'][] = "\12" . yioop_shard(['a' => [0 => [1, 2], 3 => [3]], 'b' => [3 => [1], 9 => []], 'c' => [6 => [4, 9, 30]]], 4);
$seeds['index'][] = "\12" . 'a:3:{s:6:"ACTIVE";i:4;s:21:"LAST_DICTIONARY_SHARD";i:3;s:7:"CURRENT";i:4;}';
/* a Yioop web archive's first three records (first byte 26), from tests/data/yioop's bundle:
 * summaries/web_archive_1.txt.gz cut after its third record (seed-43) */
foreach ($seeds as $format => $blobs) {
    @mkdir("$dir/$format", 0777, true);
    foreach ($blobs as $i => $b) {
        file_put_contents(sprintf('%s/%s/seed-%02d', $dir, $format, $i), $b);
    }
}
echo "seeds written to $dir\n";
