import type { TChapter } from '../chapter.schema';
import { CMD } from '../chapter-commands.data';
import {
  cmd,
  handoff,
  note,
  p,
  quiz,
  section,
  table,
  tip,
  tryIt,
  warning,
} from '../chapter-builders.util';

export const ETCD_EN: TChapter = {
  slug: 'etcd',
  locale: 'en',
  lede: 'The request has passed every check. Now the apiserver stores it, and from that moment the Deployment exists, although not one container runs yet.',
  sections: [
    section(
      'store',
      'A key-value store with one job',
      p(
        'kv',
        'etcd is a key-value database, and the only database the cluster has. Every API object lives in it as one key, laid out like a file path: `/registry/<resource>/<namespace>/<name>`.',
      ),
      handoff(
        'handoff',
        'A write from the kube-apiserver, its only client: the `my-app` Deployment, serialized.',
        'Nothing about Kubernetes. It decides only whether a majority of members agreed to the write, and gives it a new revision number.',
        'The key `/registry/deployments/default/my-app`, and a watch event that the apiserver fans out to every component watching Deployments.',
      ),
      tryIt(
        'keys',
        'List the keys under `/registry/`, then read the key of your Deployment.',
        'control-plane',
        [CMD.etcdKeys, CMD.etcdDeployment],
        'You find `/registry/deployments/default/my-app`, a ReplicaSet and three Pods under `/registry/pods/default/`, next to the cluster’s own objects.',
      ),
      p(
        'exists',
        'This is the whole meaning of “exists” in Kubernetes: there is a key in etcd. Your YAML described a desired state, not a list of steps. Writing it down is the entire job of this station; turning it into running Pods is the job of the stations that follow. That is why `apply` returns so quickly, and why a successful apply is not yet a successful deploy.',
      ),
    ),
    section(
      'quorum',
      'Quorum, and why members come in odd numbers',
      p(
        'majority',
        'Production etcd runs as several members that must never disagree. A write counts only when more than half of the members have accepted it; that majority is the quorum.',
      ),
      table(
        'quorum-table',
        'How many failed members each cluster size survives',
        ['Members', 'Quorum', 'May fail', 'Verdict'],
        ['1', '1', '0', 'fine for a lab, no redundancy'],
        ['2', '2', '0', 'worse than one: two machines that can break'],
        ['3', '2', '1', 'the usual choice'],
        ['4', '3', '1', 'one more machine, no more safety'],
        ['5', '3', '2', 'large clusters'],
        ['6', '4', '2', 'again a machine for nothing'],
        ['7', '4', '3', 'the practical upper end'],
      ),
      p(
        'why-more-than-half',
        'Why more than half, and not half? Split four members into two pairs by a network fault. If two were enough, both pairs would accept writes and the data would fork for good, the so-called split brain. With a strict majority, at most one side can ever write.',
      ),
      warning(
        'quorum-lost',
        'Quorum lost: the cluster can look, but not change',
        'Lose two of three members and the survivor refuses every write. `kubectl get` still answers, but `apply`, `delete` and `scale` fail with `etcdserver: request timed out`. Self-healing stops too: a crashed Pod is not replaced, because no controller can write the replacement.',
      ),
      note(
        'watch-cache',
        'Why reads survive',
        'The reads are not coming from etcd. The apiserver keeps a watch cache of the objects it has seen and serves lists from it. Reads that insist on fresh data, and all writes, need quorum and fail.',
      ),
      cmd(
        'members',
        'See this lab’s members and their health.',
        'control-plane',
        CMD.etcdMembers,
        CMD.etcdHealth,
      ),
    ),
    section(
      'backup',
      'Backups, and secrets in plain sight',
      p(
        'replicas-not-backups',
        'More members protect you against broken machines, not broken data. Delete a namespace by mistake and every member faithfully agrees to the deletion. For that you need a snapshot.',
      ),
      tryIt(
        'snapshot',
        'Save a snapshot, inspect it, and restore it into a new data directory.',
        'control-plane',
        [CMD.etcdSnapshotSave, CMD.etcdSnapshotStatus, CMD.etcdSnapshotRestore],
        '`Snapshot saved at /root/etcd-backup.db`, a table with its hash, revision and key count, and a restored copy under `/var/lib/etcd-restored`.',
      ),
      p(
        'restore-steps',
        'A real restore is more than one command: stop the apiservers so nothing writes, restore every member, point etcd at the new data directory, then start the apiservers again. Rehearse it; a backup you have never restored is a hope, not a backup.',
      ),
      tryIt(
        'secret',
        'Create a Secret, then read its key straight from etcd.',
        'control-plane',
        [CMD.createSecret, CMD.etcdSecret],
        'The stored object shows `s3cr3t` as it is. The API only base64-encodes Secret values, and base64 is not encryption; without encryption at rest, nothing protects them on disk.',
      ),
      tip(
        'encrypt',
        'Treat snapshots like passwords',
        'Anyone who can read etcd, or a snapshot of it, can read every Secret. Turn on encryption at rest so the apiserver encrypts Secrets before they reach etcd, and guard snapshot files as carefully as the secrets inside them.',
      ),
    ),
  ],
  quiz: [
    quiz(
      'even',
      'Why is a four-member etcd cluster a poor choice?',
      [
        ['a', 'etcd refuses to start with an even number of members.'],
        [
          'b',
          'It tolerates one failure, like three members, while adding a machine that can fail.',
        ],
        ['c', 'Writes need all four members.'],
      ],
      'b',
      'Quorum for four is three, so only one member may fail, the same as with three.',
    ),
    quiz(
      'lost',
      'Two of three etcd members are down. What does the learner see?',
      [
        ['a', 'Nothing works, not even `kubectl get`.'],
        ['b', '`kubectl get` answers, but `kubectl scale` times out.'],
        ['c', 'Everything works, only more slowly.'],
      ],
      'b',
      'Reads come from the apiserver’s cache; writes need a quorum the single survivor cannot form.',
    ),
    quiz(
      'secret-at-rest',
      'Without encryption at rest, how is a Secret’s value stored in etcd?',
      [
        ['a', 'Encrypted with the cluster CA key.'],
        ['b', 'Hashed, so it cannot be read back.'],
        ['c', 'Readable by anyone with access to etcd; the API’s base64 is no protection.'],
      ],
      'c',
      'Base64 only changes the alphabet; encryption at rest is what makes the stored value unreadable.',
    ),
  ],
};
