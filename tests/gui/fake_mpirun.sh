#!/bin/sh
# A stand-in for mpirun in the GUI tests (arguments ignored). FAKE_MPIRUN_MODE:
#   ignore-term  ignores SIGTERM (so Stop must escalate to SIGKILL) and runs forever
#   crash        prints Open MPI's message for a rank killed by signal 9, exits 137
#   hostile-lines  prints metric lines of the wrong types, then one good step line, exits 0
case "$FAKE_MPIRUN_MODE" in
ignore-term)
    trap '' TERM
    echo "[1,0]<stderr>:fake rank 0 up" >&2
    echo "[1,1]<stderr>:fake rank 1 up" >&2
    while :; do sleep 0.1; done
    ;;
crash)
    echo "[1,0]<stderr>:step 3/100 | loss 4.1" >&2
    echo "--------------------------------------------------------------------------" >&2
    echo "mpirun noticed that process rank 1 with PID 4242 on node vm exited on signal 9 (Killed)." >&2
    echo "--------------------------------------------------------------------------" >&2
    exit 137
    ;;
hostile-lines)
    echo '{"type":5}'
    echo '{"type":"run","run_id":"x","config":{"run":{"steps":"many"}}}'
    echo '{"type":"step","step":-9223372036854775808,"wall_time_s":"soon","loss":[1]}'
    echo '{"type":"step","step":2,"wall_time_s":1.0,"loss":3.5}'
    exit 0
    ;;
*)
    echo "fake_mpirun: set FAKE_MPIRUN_MODE" >&2
    exit 1
    ;;
esac
