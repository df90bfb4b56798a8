"""Inside a child: give the program the topology it is verified under.

`mirrored:N` needs N virtual CPU devices before the TF runtime starts; `ps:W,P` starts W workers and P
parameter servers as `tf.distribute.Server`s in this process on 127.0.0.1 (as TF's own guide does; the
chief, i.e. this process, only coordinates); `multi-worker:N` gets its TF_CONFIG from the parent. A program
that builds no strategy itself runs inside the scope of one made here. Servers cannot be stopped: the
parent ends the whole process group, which releases their ports.
"""
import json
import os


def prepare_devices(topology):
    """Must run before the first TensorFlow op."""
    if topology["kind"] != "mirrored":
        return
    import tensorflow as tf

    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(
        cpu, [tf.config.LogicalDeviceConfiguration() for _ in range(topology["replicas"])])


def start_in_process_ps(topology, recorder):
    """Workers and parameter servers as servers in this process; TF_CONFIG names this process chief."""
    import tensorflow as tf

    ports = {"chief": [pick_port()], "worker": [pick_port() for _ in range(topology["workers"])],
             "ps": [pick_port() for _ in range(topology["ps"])]}
    recorder.ports.extend(p for group in ports.values() for p in group)
    cluster = {job: [f"127.0.0.1:{p}" for p in group] for job, group in ports.items()}
    os.environ["TF_CONFIG"] = json.dumps({"cluster": cluster, "task": {"type": "chief", "index": 0}})
    spec = tf.train.ClusterSpec(cluster)
    worker_config = tf.compat.v1.ConfigProto(inter_op_parallelism_threads=4)
    servers = [tf.distribute.Server(spec, job_name="worker", task_index=i, config=worker_config, protocol="grpc")
               for i in range(topology["workers"])]
    servers += [tf.distribute.Server(spec, job_name="ps", task_index=i, protocol="grpc")
                for i in range(topology["ps"])]
    return servers


def pick_port():
    """portpicker's free port; an interpreter given with --migrated-python may not have portpicker: then a
    port the kernel hands out (the parent retries once when a port is taken before its server binds it)."""
    try:
        import portpicker
    except ImportError:
        import socket

        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.bind(("127.0.0.1", 0))
            return s.getsockname()[1]
    return portpicker.pick_unused_port()


def make_strategy(topology):
    """The strategy the harness wraps around a program that does not build one."""
    import tensorflow as tf

    kind = topology["kind"]
    if kind == "mirrored":
        return tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(topology["replicas"])])
    if kind == "multi-worker":
        return tf.distribute.MultiWorkerMirroredStrategy()
    if kind == "ps":
        resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
        return tf.distribute.experimental.ParameterServerStrategy(resolver)
    return None


def serve_forever(cluster, job, index):
    """A TF1 ps task: exactly what `train_and_evaluate` does on a ps (a server that joins forever)."""
    import tensorflow as tf

    server = tf.distribute.Server(tf.train.ClusterSpec(cluster), job_name=job, task_index=index,
                                  protocol="grpc", start=True)
    print(f"[tf2migrate] {job} {index} serving", flush=True)
    server.join()
