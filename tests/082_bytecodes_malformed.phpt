--TEST--
VBYTE and GROUP_VARINT malformed blobs: each rule (a value running past the end, n that disagrees, a selector whose lengths pass the end, a value too long or too large, a running sum past 2^32-1, unused slots, bytes after the last value) a GpuPost\Exception naming offset and rule, the same on host and device, in a batch by key; random damage gives the same values or the same exception on host, device and the reference; huge n refused before allocation; encoder errors
--EXTENSIONS--
gpupost
--INI--
memory_limit=256M
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
$paths = gp_device_available() ? ['host', 'device'] : ['host'];
$set = fn(string $b, int $at, string $bytes) => substr_replace($b, $bytes, $at, strlen($bytes));
$vb = gpu_encode_postings([80, 320], GPUPOST_VBYTE);                               /* 50 c0 02 */
$vb1 = gpu_encode_postings([3, 130, 16514], GPUPOST_VBYTE, GPUPOST_VALUES, ['delta' => 1]);
$gv = gpu_encode_postings([1, 256, 65536, 16777216, 7], GPUPOST_GROUP_VARINT);      /* e4 ... 00 07000000 */
$gv1 = gpu_encode_postings([10, 20, 30, 40], GPUPOST_GROUP_VARINT, GPUPOST_VALUES, ['delta' => 1]);
$cases = [
    'VBYTE wrong magic' => [GPUPOST_VBYTE, $set($vb, 0, 'GPVC')],
    'VBYTE too short' => [GPUPOST_VBYTE, 'GPVB'],
    'VBYTE delta 3' => [GPUPOST_VBYTE, $set($vb, 8, pack('V', 3))],
    'VBYTE huge n' => [GPUPOST_VBYTE, $set($vb, 4, pack('V', 0xFFFFFFFF))],
    'VBYTE a value running past the end' => [GPUPOST_VBYTE, substr($vb, 0, -1)],
    'VBYTE n above the values' => [GPUPOST_VBYTE, $set($vb, 4, pack('V', 3))],
    'VBYTE n below the values' => [GPUPOST_VBYTE, $set($vb, 4, pack('V', 1))],
    'VBYTE n = 0 with bytes' => [GPUPOST_VBYTE, $set($vb, 4, pack('V', 0))],
    'VBYTE six bytes' => [GPUPOST_VBYTE, substr($vb, 0, 4) . pack('VV', 1, 0) . "\x80\x80\x80\x80\x80\x01"],
    'VBYTE above 2^32-1' => [GPUPOST_VBYTE, substr($vb, 0, 4) . pack('VV', 1, 0) . "\xff\xff\xff\xff\x10"],
    'VBYTE running sum past 2^32-1' => [GPUPOST_VBYTE, substr($vb, 0, 4) . pack('VV', 2, 1) . "\xff\xff\xff\xff\x0f\x01"],
    'VBYTE rule 2 sum past 2^32-1' => [GPUPOST_VBYTE, substr($vb, 0, 4) . pack('VV', 2, 2) . "\xff\xff\xff\xff\x0f\x00"],
    'GROUP_VARINT wrong magic' => [GPUPOST_GROUP_VARINT, $set($gv, 0, 'GPGW')],
    'GROUP_VARINT delta 7' => [GPUPOST_GROUP_VARINT, $set($gv, 8, pack('V', 7))],
    'GROUP_VARINT huge n' => [GPUPOST_GROUP_VARINT, $set($gv, 4, pack('V', 0xFFFFFFFF))],
    /* the second group's selector at byte 23 (12, then 1 + 1 + 2 + 3 + 4): a first value of two bytes */
    'GROUP_VARINT a selector whose lengths pass the end' => [GPUPOST_GROUP_VARINT, $set($gv, 23, "\x01")],
    'GROUP_VARINT the groups end before n' => [GPUPOST_GROUP_VARINT, $set(substr($gv, 0, 22), 4, pack('V', 8))],
    'GROUP_VARINT n above the groups' => [GPUPOST_GROUP_VARINT, $set($gv, 4, pack('V', 9))],
    'GROUP_VARINT bytes after the last group' => [GPUPOST_GROUP_VARINT, $set($gv, 4, pack('V', 4))],
    'GROUP_VARINT an unused slot not 0' => [GPUPOST_GROUP_VARINT, $set($gv, 25, "\x01")],
    'GROUP_VARINT an unused slot of two bytes' => [GPUPOST_GROUP_VARINT, ''],
    'GROUP_VARINT running sum past 2^32-1' => [GPUPOST_GROUP_VARINT, substr($gv, 0, 4) . pack('VV', 2, 1) . "\x03\xff\xff\xff\xff\x01\x00\x00"],
];
/* a sum that passes 2^32-1 many device tiles in: 60,000 gaps of 100,000 stored as rule 0, the
 * header then saying rule 1 */
$gaps = array_fill(0, 60000, 100000);
$cases['VBYTE running sum past 2^32-1 tiles in'] = [GPUPOST_VBYTE, $set(gpu_encode_postings($gaps, GPUPOST_VBYTE), 8, pack('V', 1))];
$cases['GROUP_VARINT running sum past 2^32-1 tiles in'] = [GPUPOST_GROUP_VARINT, $set(gpu_encode_postings($gaps, GPUPOST_GROUP_VARINT), 8, pack('V', 1))];
/* a running sum that passes 2^32-1 among one-byte gaps, many tiles in: a large first value (five
 * bytes), then 60,027 gaps of 100 that end 50 past it, the payload (60,032 bytes) a whole number
 * of the device's items, so that no partial item at the end checks it in their stead */
$big = array_merge([4294967295 - 6002700 + 50], array_fill(0, 60027, 100));
$cases['VBYTE running sum past 2^32-1 among one-byte gaps'] = [GPUPOST_VBYTE, $set(gpu_encode_postings($big, GPUPOST_VBYTE), 8, pack('V', 1))];
$cases['GROUP_VARINT running sum past 2^32-1 among one-byte gaps'] = [GPUPOST_GROUP_VARINT, $set(gpu_encode_postings($big, GPUPOST_GROUP_VARINT), 8, pack('V', 1))];
/* forty bytes with the high bit set, a whole device item's and more, many tiles in */
$cases['VBYTE forty continuation bytes tiles in'] = [GPUPOST_VBYTE, $set(gpu_encode_postings(array_fill(0, 60000, 5), GPUPOST_VBYTE), 30000, str_repeat("\x85", 40))];
/* an unused slot two bytes long: [1, 2, 3, 4, 5] with the second group's selector saying so */
$cases['GROUP_VARINT an unused slot of two bytes'][1] = substr($gv, 0, 4) . pack('VV', 5, 0) . "\x00\x01\x02\x03\x04" . "\x04\x05\x00\x00\x00\x00";
foreach ($cases as $name => [$format, $blob]) {
    $msgs = [];
    foreach ($paths as $path) {
        $msgs[$path] = gp_error_of(fn() => gp_on($path, fn() => gpu_decode_postings($blob, $format)));
    }
    $ref = $format === GPUPOST_VBYTE ? ref_vbyte_decode($blob) : ref_gvarint_decode($blob);
    echo "$name: {$msgs['host']}\n";
    if (count(array_unique($msgs)) !== 1) { echo "  paths differ: ", json_encode($msgs), "\n"; }
    if (!is_int($ref) || !str_contains($msgs['host'], ": byte $ref: ")) { echo "  the reference says ", json_encode($ref), "\n"; }
    $m = gp_error_of(fn() => gpu_decode_postings_batch(['good' => $format === GPUPOST_VBYTE ? $vb1 : $gv1, 'x' => $blob], $format));
    if (!str_contains($m, "blob 'x'")) { echo "  batch: $m\n"; }
}
/* random damage: the same values or the same exception everywhere (fewer and shorter lists in
 * the sanitizer and valgrind runs, Zend's allocator off: the fuzz targets go further there) */
mt_srand(82);
$diff = 0;
$slow = getenv('USE_ZEND_ALLOC') === '0';
foreach ([GPUPOST_VBYTE, GPUPOST_GROUP_VARINT] as $format) {
    for ($i = 0; $i < ($slow ? 100 : 300); $i++) {
        $list = rand_byte_list(mt_rand(0, $i < 280 ? 60 : 20000), $delta = mt_rand(0, 2), [255, 70000, 0xFFFFFFFF][mt_rand(0, 2)]);
        $blob = gpu_encode_postings($list, $format, GPUPOST_VALUES, ['delta' => $delta]);
        for ($k = mt_rand(1, 3); $k > 0 && strlen($blob) > 5; $k--) {
            $at = mt_rand(4, strlen($blob) - 1);
            $blob = mt_rand(0, 5) ? $set($blob, $at, chr(ord($blob[$at]) ^ (1 << mt_rand(0, 7)))) : substr($blob, 0, $at);
        }
        $got = [];
        foreach ($paths as $path) {
            try {
                $got[$path] = gp_on($path, fn() => gpu_decode_postings($blob, $format));
            } catch (GpuPost\Exception $e) {
                $got[$path] = $e->getMessage();
            }
        }
        $ref = $format === GPUPOST_VBYTE ? ref_vbyte_decode($blob) : ref_gvarint_decode($blob);
        $host = $got['host'];
        $agree = is_array($ref) ? $host === $ref : is_string($host) && str_contains($host, ": byte $ref: ");
        if (count(array_unique(array_map('serialize', $got))) !== 1 || !$agree) {
            if ($diff++ < 5) echo "damaged blob $i (format $format): ", json_encode(array_map(fn($g) => is_array($g) ? count($g) . ' values' : $g, $got)), ' reference ', is_int($ref) ? $ref : count($ref) . ' values', "\n";
        }
    }
}
echo "damaged blobs that disagree: $diff\n";
echo gp_error_of(fn() => gpu_encode_postings([3, 2], GPUPOST_VBYTE, GPUPOST_VALUES, ['delta' => 1])), "\n";
echo gp_error_of(fn() => gpu_encode_postings([3, 3], GPUPOST_GROUP_VARINT, GPUPOST_VALUES, ['delta' => 2])), "\n";
echo gp_error_of(fn() => gpu_encode_postings([1 << 32], GPUPOST_VBYTE)), "\n";
echo gp_error_of(fn() => gpu_encode_postings([-1], GPUPOST_GROUP_VARINT)), "\n";
echo gp_error_of(fn() => gpu_encode_postings([1], GPUPOST_VBYTE, GPUPOST_VALUES, ['delta' => 3])), "\n";
echo gp_error_of(fn() => gpu_encode_postings([1], GPUPOST_GROUP_VARINT, GPUPOST_VALUES, ['c' => 1.0])), "\n";
echo gp_error_of(fn() => gpu_decode_postings($vb, GPUPOST_VBYTE, GPUPOST_DOCS)), "\n";
?>
--EXPECT--
VBYTE wrong magic: GpuPost\Exception: VBYTE: byte 0: magic is not GPVB (or the blob is shorter than its 12-byte header)
VBYTE too short: GpuPost\Exception: VBYTE: byte 0: magic is not GPVB (or the blob is shorter than its 12-byte header)
VBYTE delta 3: GpuPost\Exception: VBYTE: byte 8: delta rule 3 is not 0, 1 or 2
VBYTE huge n: GpuPost\Exception: VBYTE: byte 4: value count 4294967295 does not fit 3 bytes (a value takes one at least)
VBYTE a value running past the end: GpuPost\Exception: VBYTE: byte 13: the last value runs past the end of the blob (its last byte has the high bit set)
VBYTE n above the values: GpuPost\Exception: VBYTE: byte 4: the bytes hold 2 values, n says 3
VBYTE n below the values: GpuPost\Exception: VBYTE: byte 13: bytes after the last of n = 1 values
VBYTE n = 0 with bytes: GpuPost\Exception: VBYTE: byte 12: bytes after the last of n = 0 values
VBYTE six bytes: GpuPost\Exception: VBYTE: byte 12: a value longer than 5 bytes
VBYTE above 2^32-1: GpuPost\Exception: VBYTE: byte 12: a value above 2^32-1 (its fifth byte is above 0x0f)
VBYTE running sum past 2^32-1: GpuPost\Exception: VBYTE: byte 17: the running sum passes 2^32-1
VBYTE rule 2 sum past 2^32-1: GpuPost\Exception: VBYTE: byte 17: the running sum passes 2^32-1
GROUP_VARINT wrong magic: GpuPost\Exception: GROUP_VARINT: byte 0: magic is not GPGV (or the blob is shorter than its 12-byte header)
GROUP_VARINT delta 7: GpuPost\Exception: GROUP_VARINT: byte 8: delta rule 7 is not 0, 1 or 2
GROUP_VARINT huge n: GpuPost\Exception: GROUP_VARINT: byte 4: value count 4294967295 does not fit 16 bytes (a group of four takes five at least)
GROUP_VARINT a selector whose lengths pass the end: GpuPost\Exception: GROUP_VARINT: byte 23: a group runs past the end of the blob
GROUP_VARINT the groups end before n: GpuPost\Exception: GROUP_VARINT: byte 12: a group runs past the end of the blob
GROUP_VARINT n above the groups: GpuPost\Exception: GROUP_VARINT: byte 28: the groups end before n values
GROUP_VARINT bytes after the last group: GpuPost\Exception: GROUP_VARINT: byte 23: bytes after the last group of n = 4 values
GROUP_VARINT an unused slot not 0: GpuPost\Exception: GROUP_VARINT: byte 23: an unused slot of the last group is not one byte holding 0
GROUP_VARINT an unused slot of two bytes: GpuPost\Exception: GROUP_VARINT: byte 17: an unused slot of the last group is not one byte holding 0
GROUP_VARINT running sum past 2^32-1: GpuPost\Exception: GROUP_VARINT: byte 12: the running sum passes 2^32-1
VBYTE running sum past 2^32-1 tiles in: GpuPost\Exception: VBYTE: byte 128859: the running sum passes 2^32-1
GROUP_VARINT running sum past 2^32-1 tiles in: GpuPost\Exception: GROUP_VARINT: byte 139593: the running sum passes 2^32-1
VBYTE running sum past 2^32-1 among one-byte gaps: GpuPost\Exception: VBYTE: byte 60043: the running sum passes 2^32-1
GROUP_VARINT running sum past 2^32-1 among one-byte gaps: GpuPost\Exception: GROUP_VARINT: byte 75045: the running sum passes 2^32-1
VBYTE forty continuation bytes tiles in: GpuPost\Exception: VBYTE: byte 30000: a value longer than 5 bytes
damaged blobs that disagree: 0
ValueError: gpu_encode_postings(): Argument #1 ($data) cannot be encoded as GPUPOST_VBYTE with delta 1 at position 1: values must be non-decreasing from 0 and at most 2^32-1
ValueError: gpu_encode_postings(): Argument #1 ($data) cannot be encoded as GPUPOST_GROUP_VARINT with delta 2 at position 1: values must be strictly increasing from 0 and at most 2^32-1
ValueError: gpu_encode_postings(): Argument #1 ($data) cannot be encoded as GPUPOST_VBYTE with delta 0 at position 0: values must be 0..2^32-1
ValueError: gpu_encode_postings(): Argument #1 ($data) cannot be encoded as GPUPOST_GROUP_VARINT with delta 0 at position 0: values must be 0..2^32-1
ValueError: gpu_encode_postings(): Argument #4 ($options) option "delta" must be 0, 1 or 2
ValueError: gpu_encode_postings(): Argument #4 ($options) contains unknown option "c" for this format
ValueError: gpu_decode_postings(): Argument #3 ($mode) must be GPUPOST_VALUES for this format (DOCS and POSTINGS are MOD9 only)