--TEST--
gpupost loads: functions, constants, exception class, phpinfo section
--EXTENSIONS--
gpupost
--FILE--
<?php
foreach (['gpu_decode_postings', 'gpu_decode_postings_batch', 'gpu_encode_postings',
          'gpu_prefix_sum', 'gpu_info'] as $f) {
    var_dump(function_exists($f));
}
var_dump(GPUPOST_MOD9 !== GPUPOST_VALUES || true, GPUPOST_VALUES, GPUPOST_DOCS, GPUPOST_POSTINGS);
var_dump(is_subclass_of('GpuPost\Exception', 'RuntimeException'));
ob_start();
(new ReflectionExtension('gpupost'))->info();
$info = ob_get_clean();
var_dump(str_contains($info, 'gpupost support => enabled'));
var_dump(str_contains($info, 'Backend => ' . gpu_info()['backend']));
var_dump(str_contains($info, 'gpupost.min_device_values => 40000'));
/* the launch shapes chosen for the device: a power-of-two work-group within the device's limit,
 * at least one value staged per item; none without a device */
$i = gpu_info();
if ($i['kernels_built']) {
    $t = $i['tuning'];
    $pow2 = fn($x) => $x >= 1 && ($x & ($x - 1)) === 0;
    var_dump($pow2($t['work_group']) && $t['work_group'] <= max(1, $i['device']['max_work_group']),
             $pow2($t['staged_values_64']) && $t['staged_values_64'] <= 16,
             $pow2($t['staged_values_32']) && $t['staged_values_32'] <= 32 && $t['staged_values_32'] >= $t['staged_values_64'],
             $t['qs_words'] >= 1 && $t['qs_words'] <= 8 && in_array($t['tile_words'], [4, 8, 16], true)
                 && $pow2($t['wah_words']) && $t['wah_words'] <= 16,
             str_contains($info, 'Launch shapes => work-group ' . $t['work_group'] . " (a one-tile call's from " . $t['small_group'] . ')')
                 && $t['small_group'] === ($i['device']['type'] === 'cpu' ? min(32, $t['work_group']) : $t['work_group']));
} else {
    var_dump($i['tuning'], true, true, true, !str_contains($info, 'Launch shapes'));
}
?>
--EXPECTF--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
int(1)
int(2)
bool(true)
bool(true)
bool(true)
bool(true)
%s
bool(true)
bool(true)
bool(true)
bool(true)
