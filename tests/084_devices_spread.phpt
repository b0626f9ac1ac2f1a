--TEST--
A set of devices in gpupost.device: each process takes the next ticket and uses device ticket % n (spread), gpu_info() and phpinfo say which and why; lists of P:D, bad sets and gpupost.multi_device's values
--EXTENSIONS--
gpupost
--SKIPIF--
<?php if (gpu_info()['backend'] !== 'opencl') die('skip no OpenCL device'); ?>
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
$info = gpu_info();
$me = $info['platform']['index'] . ':' . $info['device']['index'];
$ticket = tempnam(sys_get_temp_dir(), 'gpupost-ticket');
unlink($ticket);   /* the first process finds no file: ticket 0 */

$report = 'gpu_decode_postings(pack("N", 0x3c0014e5));
$i = gpu_info();
echo json_encode([$i["backend"], $i["last_backend"], count($i["devices"]), $i["devices_in_set"], $i["device_rule"],
                  $i["device"]["index"] ?? null, $i["reason"], $i["ini"]["gpupost.multi_device"]]);';

/* spread: four processes over a set of two, one after another */
$sets = ["$me,$me" => []];
if (str_contains($info['platform']['name'], 'Portable Computing Language')) {
    $sets['cpu:all'] = ['POCL_DEVICES' => 'pthread pthread'];
}
foreach ($sets as $spec => $env) {
    @unlink($ticket);
    $seen = [];
    for ($p = 0; $p < 4; $p++) {
        [$out] = gp_child($report, ['gpupost.device' => $spec], 'device', [], $env + ['GPUPOST_DEVICE_TICKET' => $ticket]);
        [$backend, $ran, $n, $in_set, $rule, $index] = json_decode($out, true);
        echo "$backend $ran $n of $in_set: $rule\n";
        $seen[] = $index;
    }
    /* two devices of PoCL: the processes alternate between them */
    if ($spec === 'cpu:all') var_dump($seen === [0, 1, 0, 1]);
}
@unlink($ticket);

/* all: one process uses every device of the set */
[$out] = gp_child($report, ['gpupost.device' => "$me,$me,$me", 'gpupost.multi_device' => 'all'], 'device');
[$backend, $ran, $n, $in_set, $rule] = json_decode($out, true);
echo "$backend $ran $n of $in_set: $rule\n";

/* a list naming a device that is not there: the host serves, and says why */
[$out] = gp_child($report, ['gpupost.device' => "$me,9:9"], 'device');
[$backend, $ran, $n, $in_set, $rule, $index, $reason] = json_decode($out, true);
echo "$backend $ran $n: $reason\n";

/* values: sets and lists are taken; a malformed list or multi_device warns */
foreach (['gpu:all', 'cpu:all', 'all', "$me,$me", '0:0,', '0:0,x', ',0:0'] as $v) {
    [$out] = gp_child('echo ini_get("gpupost.device");', ['gpupost.device' => $v]);
    echo str_contains($out, 'Warning') ? "$v: warns\n" : "$v: taken\n";
}
[$out] = gp_child('echo ini_get("gpupost.multi_device");', ['gpupost.multi_device' => 'bogus']);
echo preg_replace('/ in .*$/m', '', $out), "\n";

/* phpinfo names the rule */
[$out] = gp_child('phpinfo(INFO_MODULES);', ['gpupost.device' => "$me,$me"], 'device', [], ['GPUPOST_DEVICE_TICKET' => $ticket]);
echo preg_match('/Devices picked => spread: ticket 0, device 0 of the 2/', $out) ? "phpinfo: rule\n" : "phpinfo: $out\n";
@unlink($ticket);
?>
--EXPECTF--
opencl opencl 1 of 2: spread: ticket 0, device 0 of the 2 gpupost.device names (ticket % 2)
opencl opencl 1 of 2: spread: ticket 1, device 1 of the 2 gpupost.device names (ticket % 2)
opencl opencl 1 of 2: spread: ticket 2, device 0 of the 2 gpupost.device names (ticket % 2)
opencl opencl 1 of 2: spread: ticket 3, device 1 of the 2 gpupost.device names (ticket % 2)
%Aopencl opencl 3 of 3: all 3 devices gpupost.device names (gpupost.multi_device=all)
host host 0: no OpenCL device 9:9 (gpupost.device="%d:%d,9:9")
gpu:all: taken
cpu:all: taken
all: taken
%d:%d,%d:%d: taken
0:0,: warns
0:0,x: warns
,0:0: warns
Warning: PHP Startup: gpupost.multi_device must be spread or all, "bogus" given
spread
phpinfo: rule
