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

export const ETCD_ZH_TW: TChapter = {
  slug: 'etcd',
  locale: 'zh-TW',
  lede: '請求過了每一道檢查，apiserver 接著把它存起來。從這一刻起 Deployment 就存在了，雖然連一個容器都還沒啟動。',
  sections: [
    section(
      'store',
      '只做一件事的 key-value 資料庫',
      p(
        'kv',
        'etcd 是 key-value store（鍵值資料庫），也是叢集裡僅有的資料庫。每個 API 物件在裡面都是一個 key，排法像檔案路徑：`/registry/<resource>/<namespace>/<name>`。',
      ),
      handoff(
        'handoff',
        '來自 kube-apiserver 的寫入，它也是 etcd 唯一的客戶端：序列化後的 `my-app` Deployment。',
        '它完全不懂 Kubernetes。它只判斷這筆寫入有沒有得到多數成員同意，並配給它一個新的 revision 編號。',
        '`/registry/deployments/default/my-app` 這個 key，外加一個 watch 事件，由 apiserver 轉發給所有在 watch Deployment 的元件。',
      ),
      tryIt(
        'keys',
        '列出 `/registry/` 底下的 key，再讀你那個 Deployment 的 key。',
        'control-plane',
        [CMD.etcdKeys, CMD.etcdDeployment],
        '你會找到 `/registry/deployments/default/my-app`、一個 ReplicaSet，以及 `/registry/pods/default/` 底下的三個 Pod，旁邊還有叢集自己的物件。',
      ),
      p(
        'exists',
        '在 Kubernetes 裡，「存在」的意思就只是 etcd 裡有這個 key。你的 YAML 描述的是 desired state（期望狀態），不是一串步驟。把它記下來就是這一站全部的工作，把它變成正在跑的 Pod，是後面幾站的事。所以 `apply` 才回得這麼快，也所以 apply 成功還不代表部署成功。',
      ),
    ),
    section(
      'quorum',
      'quorum，以及成員數為什麼是奇數',
      p(
        'majority',
        '正式環境的 etcd 由好幾個成員組成，彼此的資料絕不能有出入。一筆寫入要超過半數成員接受才算數，這個多數就叫 quorum（法定人數）。',
      ),
      table(
        'quorum-table',
        '不同規模各能承受幾個成員故障',
        ['成員數', 'quorum', '可故障數', '評語'],
        ['1', '1', '0', '適合 lab，沒有備援'],
        ['2', '2', '0', '比一台更糟：多一台會壞的機器'],
        ['3', '2', '1', '最常見的選擇'],
        ['4', '3', '1', '多一台機器，卻沒有更安全'],
        ['5', '3', '2', '大型叢集'],
        ['6', '4', '2', '又白白多一台'],
        ['7', '4', '3', '實務上的上限'],
      ),
      p(
        'why-more-than-half',
        '為什麼是「超過一半」而不是「一半」？假設網路故障把四個成員切成兩組各兩個。如果兩個就夠，兩邊都會接受寫入，資料從此分岔，這叫 split-brain（腦裂）。要求嚴格多數，就最多只有一邊寫得進去。',
      ),
      warning(
        'quorum-lost',
        'quorum 沒了：叢集看得到，改不動',
        '三個成員壞了兩個，剩下那一個會拒絕所有寫入。`kubectl get` 還會回答，但 `apply`、`delete`、`scale` 都會以 `etcdserver: request timed out` 失敗。自我修復也停了：Pod 當掉不會有人補，因為沒有 controller 寫得進替代品。',
      ),
      note(
        'watch-cache',
        '讀取為什麼還能用',
        '那些讀取其實不是從 etcd 來的。apiserver 有一份 watch cache，保存它看過的物件，清單就從這裡回應。堅持要最新資料的讀取，以及所有寫入，都需要 quorum，所以會失敗。',
      ),
      cmd(
        'members',
        '看這個 lab 的成員和健康狀態。',
        'control-plane',
        CMD.etcdMembers,
        CMD.etcdHealth,
      ),
    ),
    section(
      'backup',
      '備份，以及攤在眼前的 Secret',
      p(
        'replicas-not-backups',
        '成員多，防的是機器壞掉，不是資料壞掉。手滑刪掉一個 namespace，每個成員都會忠實地同意這次刪除。這時候你需要的是 snapshot（快照）。',
      ),
      tryIt(
        'snapshot',
        '存一份 snapshot，檢查它，再還原到一個新的資料目錄。',
        'control-plane',
        [CMD.etcdSnapshotSave, CMD.etcdSnapshotStatus, CMD.etcdSnapshotRestore],
        '看到 `Snapshot saved at /root/etcd-backup.db`、一張列出 hash、revision 和 key 數量的表，以及 `/var/lib/etcd-restored` 底下的還原結果。',
      ),
      p(
        'restore-steps',
        '真正的還原不只一行指令：先停掉 apiserver 以免有人寫入，每個成員都要還原，把 etcd 指向新的資料目錄，最後再啟動 apiserver。請實際演練；從沒還原過的備份只是一種期待，算不上備份。',
      ),
      tryIt(
        'secret',
        '建立一個 Secret，再直接從 etcd 讀它的 key。',
        'control-plane',
        [CMD.createSecret, CMD.etcdSecret],
        '存下來的物件裡，`s3cr3t` 原封不動。API 對 Secret 的值只做 base64 編碼，而 base64 不是加密；沒開 encryption at rest（靜態加密），磁碟上就毫無保護。',
      ),
      tip(
        'encrypt',
        '把 snapshot 當密碼看待',
        '讀得到 etcd 或它的 snapshot 的人，就讀得到每一個 Secret。開啟 encryption at rest，讓 apiserver 在 Secret 進 etcd 之前先加密；snapshot 檔也要跟裡面的機密一樣小心保管。',
      ),
    ),
  ],
  quiz: [
    quiz(
      'even',
      '為什麼四個成員的 etcd 不是好選擇？',
      [
        ['a', 'etcd 在偶數成員時拒絕啟動。'],
        ['b', '它跟三個成員一樣只能壞一個，卻多了一台可能故障的機器。'],
        ['c', '每筆寫入都需要四個成員同意。'],
      ],
      'b',
      '四個成員的 quorum 是三，所以只能容忍一個故障，跟三個成員相同。',
    ),
    quiz(
      'lost',
      '三個 etcd 成員停了兩個，學員會看到什麼？',
      [
        ['a', '全部不能用，連 `kubectl get` 都不行。'],
        ['b', '`kubectl get` 有回應，但 `kubectl scale` 逾時失敗。'],
        ['c', '一切正常，只是變慢。'],
      ],
      'b',
      '讀取由 apiserver 的快取回應；寫入需要 quorum，只剩一個成員湊不出來。',
    ),
    quiz(
      'secret-at-rest',
      '沒有開 encryption at rest 時，Secret 的值在 etcd 裡是什麼樣子？',
      [
        ['a', '用叢集 CA 的金鑰加密。'],
        ['b', '雜湊過，讀不回來。'],
        ['c', '能存取 etcd 的人都讀得到；API 的 base64 擋不住任何人。'],
      ],
      'c',
      'base64 只是換一套字母表；真正讓儲存內容無法讀取的是 encryption at rest。',
    ),
  ],
};
