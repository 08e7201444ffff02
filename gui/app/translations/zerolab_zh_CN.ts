<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ConfigCheck</name>
    <message>
        <source>Check batch related parameters. train_batch_size is not equal to micro_batch_per_gpu * gradient_acc_step * world_size %1 != %2 * %3 * %4 (%5)</source>
        <translation>请检查批次相关参数。train_batch_size 不等于 micro_batch_per_gpu * gradient_acc_step * world_size：%1 != %2 * %3 * %4（%5）</translation>
    </message>
    <message>
        <source>%1 is not divisible by %2 %3 x world size %4 = %5</source>
        <translation>%1 不能被 %2 %3 × 进程数 %4 = %5 整除</translation>
    </message>
    <message>
        <source>world size must be &gt;= 1, got %1</source>
        <translation>进程数必须 &gt;= 1，实际为 %1</translation>
    </message>
    <message>
        <source>Either train_batch_size or train_micro_batch_size_per_gpu needs to be provided; &quot;auto&quot; cannot be resolved when neither is a number</source>
        <translation>必须给出 train_batch_size 或 train_micro_batch_size_per_gpu；两者都不是数字时无法解析 &quot;auto&quot;</translation>
    </message>
    <message>
        <source>Either train_batch_size or train_micro_batch_size_per_gpu needs to be provided</source>
        <translation>必须给出 train_batch_size 或 train_micro_batch_size_per_gpu</translation>
    </message>
    <message>
        <source>&quot;auto&quot; cannot be resolved: give both %1 and %2 as numbers, or a number here</source>
        <translation>无法解析 &quot;auto&quot;：请把 %1 和 %2 都给成数字，或在此处给一个数字</translation>
    </message>
    <message>
        <source>Check batch related parameters: train_batch_size %1 must equal train_micro_batch_size_per_gpu %2 * gradient_accumulation_steps %3 * world size, but %1 is not a multiple of %4</source>
        <translation>请检查批次相关参数：train_batch_size %1 必须等于 train_micro_batch_size_per_gpu %2 * gradient_accumulation_steps %3 * 进程数，但 %1 不是 %4 的倍数</translation>
    </message>
    <message>
        <source>the product is %1</source>
        <translation>乘积为 %1</translation>
    </message>
    <message>
        <source>%1 is not divisible by world size %2</source>
        <translation>%1 不能被进程数 %2 整除</translation>
    </message>
    <message>
        <source>train_batch_size %1 is too large</source>
        <translation>train_batch_size %1 过大</translation>
    </message>
    <message>
        <source>ignored: data.type &quot;synthetic&quot; reads no file</source>
        <translation>已忽略：data.type &quot;synthetic&quot; 不读取文件</translation>
    </message>
    <message>
        <source>required for data.type &quot;%1&quot;</source>
        <translation>data.type &quot;%1&quot; 需要此项</translation>
    </message>
    <message>
        <source>&quot;%1&quot; does not exist</source>
        <translation>&quot;%1&quot; 不存在</translation>
    </message>
    <message>
        <source>must not be empty when run.checkpoint_every is &gt; 0</source>
        <translation>run.checkpoint_every &gt; 0 时不能为空</translation>
    </message>
    <message>
        <source>an object</source>
        <translation>一个对象</translation>
    </message>
    <message>
        <source>an array of two numbers in [0, 1)</source>
        <translation>由两个 [0, 1) 内的数组成的数组</translation>
    </message>
    <message>
        <source>a number in [0, 1)</source>
        <translation>取值在 [0, 1) 内的数</translation>
    </message>
    <message>
        <source>required when &quot;optimizer&quot; is given; expected &quot;Adam&quot; or &quot;AdamW&quot;</source>
        <translation>给出 &quot;optimizer&quot; 时必须指定；应为 &quot;Adam&quot; 或 &quot;AdamW&quot;</translation>
    </message>
    <message>
        <source>optimizer &quot;%1&quot; is not implemented by zerolab; expected &quot;Adam&quot; or &quot;AdamW&quot;</source>
        <translation>zerolab 未实现优化器 &quot;%1&quot;；应为 &quot;Adam&quot; 或 &quot;AdamW&quot;</translation>
    </message>
    <message>
        <source>unknown optimizer &quot;%1&quot;; expected &quot;Adam&quot; or &quot;AdamW&quot;%2</source>
        <translation>未知的优化器 &quot;%1&quot;；应为 &quot;Adam&quot; 或 &quot;AdamW&quot;%2</translation>
    </message>
    <message>
        <source>a number &gt; 0</source>
        <translation>大于 0 的数</translation>
    </message>
    <message>
        <source>a number &gt;= 0</source>
        <translation>大于等于 0 的数</translation>
    </message>
    <message>
        <source>ignored: AdamW always decouples weight decay (as in DeepSpeed)</source>
        <translation>已忽略：AdamW 总是解耦权重衰减（与 DeepSpeed 相同）</translation>
    </message>
    <message>
        <source>false is not implemented: zerolab&apos;s Adam always applies bias correction</source>
        <translation>未实现 false：zerolab 的 Adam 总是做偏差校正</translation>
    </message>
    <message>
        <source>true is not implemented: AMSGrad is not supported</source>
        <translation>未实现 true：不支持 AMSGrad</translation>
    </message>
    <message>
        <source>required when &quot;scheduler&quot; is given; expected &quot;WarmupLR&quot;, &quot;WarmupDecayLR&quot; or &quot;WarmupCosineLR&quot;</source>
        <translation>给出 &quot;scheduler&quot; 时必须指定；应为 &quot;WarmupLR&quot;、&quot;WarmupDecayLR&quot; 或 &quot;WarmupCosineLR&quot;</translation>
    </message>
    <message>
        <source>scheduler &quot;%1&quot; is not implemented by zerolab; expected &quot;WarmupLR&quot;, &quot;WarmupDecayLR&quot; or &quot;WarmupCosineLR&quot;</source>
        <translation>zerolab 未实现学习率计划 &quot;%1&quot;；应为 &quot;WarmupLR&quot;、&quot;WarmupDecayLR&quot; 或 &quot;WarmupCosineLR&quot;</translation>
    </message>
    <message>
        <source>unknown scheduler &quot;%1&quot;; expected &quot;WarmupLR&quot;, &quot;WarmupDecayLR&quot; or &quot;WarmupCosineLR&quot;%2</source>
        <translation>未知的学习率计划 &quot;%1&quot;；应为 &quot;WarmupLR&quot;、&quot;WarmupDecayLR&quot; 或 &quot;WarmupCosineLR&quot;%2</translation>
    </message>
    <message>
        <source>ignored: zerolab starts schedules at step 0</source>
        <translation>已忽略：zerolab 的学习率计划总是从第 0 步开始</translation>
    </message>
    <message>
        <source>not a parameter of %1</source>
        <translation>不是 %1 的参数</translation>
    </message>
    <message>
        <source>unknown parameter of %1%2</source>
        <translation>%1 的未知参数%2</translation>
    </message>
    <message>
        <source>a number in [0, 1]</source>
        <translation>取值在 [0, 1] 内的数</translation>
    </message>
    <message>
        <source>warmup_max_lr %1 is below warmup_min_lr %2</source>
        <translation>warmup_max_lr %1 小于 warmup_min_lr %2</translation>
    </message>
    <message>
        <source>required by %1; give a number, or &quot;auto&quot; for run.steps</source>
        <translation>%1 需要此项；请给一个数字，或用 &quot;auto&quot; 取 run.steps</translation>
    </message>
    <message>
        <source>%1 must exceed warmup_num_steps (%2, at least 2 as in DeepSpeed): the cosine phase would have no steps</source>
        <translation>%1 必须大于 warmup_num_steps（%2，与 DeepSpeed 一样至少为 2）：否则余弦阶段没有步数</translation>
    </message>
    <message>
        <source>%1 is below warmup_num_steps %2: the decay phase never starts</source>
        <translation>%1 小于 warmup_num_steps %2：衰减阶段永远不会开始</translation>
    </message>
    <message>
        <source>give either &quot;bf16&quot; or its legacy alias &quot;bfloat16&quot;, not both</source>
        <translation>&quot;bf16&quot; 与其旧别名 &quot;bfloat16&quot; 只能给一个，不能同时给</translation>
    </message>
    <message>
        <source>fp16 training is not implemented (it needs loss scaling); use &quot;bf16&quot;: {&quot;enabled&quot;: true} for mixed precision</source>
        <translation>未实现 fp16 训练（它需要损失缩放）；混合精度请用 &quot;bf16&quot;: {&quot;enabled&quot;: true}</translation>
    </message>
    <message>
        <source>ignored: model.recompute &quot;%1&quot; is given and wins over this section (which means &quot;full&quot;)</source>
        <translation>已忽略：已给出 model.recompute &quot;%1&quot;，它优先于本节（本节表示 &quot;full&quot;）</translation>
    </message>
    <message>
        <source>mapped to model.recompute &quot;full&quot;: every transformer block&apos;s forward is recomputed in backward (one checkpoint per block)</source>
        <translation>映射为 model.recompute &quot;full&quot;：每个 Transformer 块的前向在反向时重计算（每块一个检查点）</translation>
    </message>
    <message>
        <source>ignored: it splits checkpoints across model-parallel ranks; zerolab is data-parallel only, so each rank keeps its own</source>
        <translation>已忽略：它把检查点拆分到模型并行的各进程上；zerolab 只做数据并行，每个进程保留自己的检查点</translation>
    </message>
    <message>
        <source>not implemented, ignored: checkpoints stay in device memory</source>
        <translation>未实现，已忽略：检查点留在设备内存中</translation>
    </message>
    <message>
        <source>ignored: zerolab checkpoints every block (n_layer = %1), not %2</source>
        <translation>已忽略：zerolab 为每个块设检查点（n_layer = %1），而不是 %2 个</translation>
    </message>
    <message>
        <source>not implemented, ignored</source>
        <translation>未实现，已忽略</translation>
    </message>
    <message>
        <source>cannot read config file: %1</source>
        <translation>无法读取配置文件：%1</translation>
    </message>
    <message>
        <source>line %1, column %2: invalid JSON: %3</source>
        <translation>第 %1 行第 %2 列：无效的 JSON：%3</translation>
    </message>
    <message>
        <source>%1 differs from %2 (%3); remove it, or give a custom shape instead</source>
        <translation>%1 与 %2（%3）不同；请删除它，或改为给出自定义形状</translation>
    </message>
    <message>
        <source>unknown preset &quot;%1&quot;; expected one of %2%3</source>
        <translation>未知的预设 &quot;%1&quot;；应为以下之一：%2%3</translation>
    </message>
    <message>
        <source>the shape in %1</source>
        <translation>%1 中的形状</translation>
    </message>
    <message>
        <source>preset &quot;%1&quot; differs from %2; remove one of them</source>
        <translation>预设 &quot;%1&quot; 与 %2 不同；请删除其中之一</translation>
    </message>
    <message>
        <source>preset &quot;%1&quot;</source>
        <translation>预设 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>%1 exceeds the maximum context %2 of %3</source>
        <translation>%1 超过了 %3 的最大上下文长度 %2</translation>
    </message>
    <message>
        <source>required for a custom shape (or give model.preset)</source>
        <translation>自定义形状需要此项（或给出 model.preset）</translation>
    </message>
    <message>
        <source>%1 is below vocab_size %2</source>
        <translation>%1 小于 vocab_size %2</translation>
    </message>
    <message>
        <source>%1 is not divisible by n_head %2</source>
        <translation>%1 不能被 n_head %2 整除</translation>
    </message>
    <message>
        <source>n_layer %1, n_embd %2, seq_len %3 and padded_vocab_size %4 make more than 2^48 parameters</source>
        <translation>n_layer %1、n_embd %2、seq_len %3 和 padded_vocab_size %4 的参数超过 2^48 个</translation>
    </message>
    <message>
        <source>data.type &quot;%1&quot; uses bytes as tokens and needs vocab_size &gt;= 256, got %2</source>
        <translation>data.type &quot;%1&quot; 以字节为词元，需要 vocab_size &gt;= 256，实际为 %2</translation>
    </message>
    <message>
        <source>%1 must hold a JSON object at the top level, got %2</source>
        <translation>%1 的顶层必须是 JSON 对象，实际为 %2</translation>
    </message>
    <message>
        <source>a number &gt;= 0 (0: off)</source>
        <translation>大于等于 0 的数（0：关闭）</translation>
    </message>
    <message>
        <source>an integer %1-%2</source>
        <translation>介于 %1 和 %2 之间的整数</translation>
    </message>
    <message>
        <source>expected %1, got %2</source>
        <translation>应为%1，实际为 %2</translation>
    </message>
    <message>
        <source>expected %1, got nothing</source>
        <translation>应为%1，实际没有值</translation>
    </message>
    <message>
        <source>&quot;auto&quot; cannot be resolved here: nothing else in the config decides this key; give a value</source>
        <translation>此处无法解析 &quot;auto&quot;：配置中没有其他项决定这个键；请给出一个值</translation>
    </message>
    <message>
        <source>true or false</source>
        <translation>布尔值 true 或 false</translation>
    </message>
    <message>
        <source>a string</source>
        <translation>字符串</translation>
    </message>
    <message>
        <source>a string without NUL characters</source>
        <translation>不含 NUL 字符的字符串</translation>
    </message>
    <message>
        <source>one of %1</source>
        <translation>以下之一：%1</translation>
    </message>
    <message>
        <source> (did you mean &quot;%1&quot;?)</source>
        <translation>（是否想写 &quot;%1&quot;？）</translation>
    </message>
    <message>
        <source>DeepSpeed setting not implemented by zerolab; ignored</source>
        <translation>zerolab 未实现的 DeepSpeed 设置；已忽略</translation>
    </message>
    <message>
        <source>unknown key%1</source>
        <translation>未知的键%1</translation>
    </message>
    <message>
        <source>unknown key, not a setting zerolab knows; ignored</source>
        <translation>未知的键，不是 zerolab 认识的设置；已忽略</translation>
    </message>
    <message>
        <source>fp16 gradients are not implemented; use &quot;fp32&quot; or &quot;bf16&quot;</source>
        <translation>未实现 fp16 梯度；请使用 &quot;fp32&quot; 或 &quot;bf16&quot;</translation>
    </message>
    <message>
        <source>a non-empty folder name without &apos;/&apos;</source>
        <translation>不含 &apos;/&apos; 的非空文件夹名</translation>
    </message>
    <message>
        <source>an array of collective names</source>
        <translation>集合通信名称的数组</translation>
    </message>
    <message>
        <source>%1 is not a collective zerolab runs (all_reduce, reduce_scatter_tensor, all_gather_into_tensor, broadcast); it never appears%2</source>
        <translation>%1 不是 zerolab 执行的集合通信（all_reduce、reduce_scatter_tensor、all_gather_into_tensor、broadcast），不会出现%2</translation>
    </message>
    <message>
        <source>ignored: zerolab sends nothing over the network; turn on &quot;tensorboard&quot; or &quot;csv_monitor&quot; and point your tools at their files instead</source>
        <translation>已忽略：zerolab 不经网络发送任何数据；请改为开启 &quot;tensorboard&quot; 或 &quot;csv_monitor&quot;，并让你的工具读取它们写出的文件</translation>
    </message>
    <message>
        <source>required when device is &quot;nvme&quot; (as in DeepSpeed)</source>
        <translation>device 为 &quot;nvme&quot; 时必须给出（与 DeepSpeed 相同）</translation>
    </message>
    <message>
        <source>ignored: ZeRO-Offload needs stage 1, 2 or 3 (as in DeepSpeed)</source>
        <translation>已忽略：ZeRO-Offload 需要阶段 1、2 或 3（与 DeepSpeed 相同）</translation>
    </message>
    <message>
        <source>ignored: only stage 3 offloads the parameters (as in DeepSpeed)</source>
        <translation>已忽略：只有阶段 3 卸载参数（与 DeepSpeed 相同）</translation>
    </message>
    <message>
        <source>ignored: ZeRO++ works on stage 3&apos;s partitions (DeepSpeed ignores it at stage %1)</source>
        <translation>已忽略：ZeRO++ 作用于阶段 3 的分区（DeepSpeed 在阶段 %1 忽略它）</translation>
    </message>
    <message>
        <source>ZeRO++ runs on run.device &quot;cpu&quot; only (its quantization is host code)</source>
        <translation>ZeRO++ 只能在 run.device &quot;cpu&quot; 上运行（其量化是主机代码）</translation>
    </message>
    <message>
        <source>%1 does not divide the world of %2 ranks</source>
        <translation>%1 不能整除 %2 个进程的总数</translation>
    </message>
    <message>
        <source>0 or a number of seconds in [1, 604800]; below 1 s an ordinary scheduling pause of a healthy rank would count as a stall (0: max(10 x the median step time, 120 s))</source>
        <translation>0 或取值在 [1, 604800] 内的秒数；低于 1 s 时，健康 rank 的一次普通调度停顿也会被算作停滞（0：max(10 × 每步时间的中位数, 120 s)）</translation>
    </message>
    <message>
        <source>bf16 gradients need bf16 training (%1); fp32 training accumulates in fp32</source>
        <translation>bf16 梯度需要 bf16 训练（%1）；fp32 训练本来就以 fp32 累加</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1: %2: %3</source>
        <translation>%1：%2：%3</translation>
    </message>
    <message>
        <source>&quot;standard&quot; is not available for the Llama family: the standard kernel takes packed multi-head q, k and v, and grouped-query attention would need copies of the shared key/value heads; use &quot;flash&quot; (the family&apos;s default)</source>
        <translation>Llama 系列不支持 &quot;standard&quot;：标准内核接收打包的多头 q、k、v，而分组查询注意力需要复制共享的键/值头；请使用 &quot;flash&quot;（该系列的默认值）</translation>
    </message>
    <message>
        <source>a key of the Llama family, and %1 is a GPT-2 model; remove it (or give model.family &quot;llama&quot;)</source>
        <translation>这是 Llama 系列的键，而 %1 是 GPT-2 模型；请删除它（或给出 model.family &quot;llama&quot;）</translation>
    </message>
    <message>
        <source>&quot;%1&quot; differs from %2 (&quot;%3&quot;)</source>
        <translation>&quot;%1&quot; 与 %2（&quot;%3&quot;）不同</translation>
    </message>
    <message>
        <source>required for a custom Llama shape (the MLP&apos;s width; or give model.preset or model.hf_config)</source>
        <translation>自定义 Llama 形状必须给出（MLP 的宽度；或给出 model.preset 或 model.hf_config）</translation>
    </message>
    <message>
        <source>%1 does not divide n_head %2: grouped-query attention shares each key/value head among a whole number of query heads</source>
        <translation>%1 不能整除 n_head %2：分组查询注意力让每个键/值头由整数个查询头共享</translation>
    </message>
    <message>
        <source>%1 is not divisible by n_head %2 (or give model.head_dim)</source>
        <translation>%1 不能被 n_head %2 整除（或给出 model.head_dim）</translation>
    </message>
    <message>
        <source>head_dim %1 is odd: rotary position embedding rotates pairs of dimensions, so a head&apos;s dimension must be even</source>
        <translation>head_dim %1 是奇数：旋转位置编码成对旋转维度，所以每个头的维度必须是偶数</translation>
    </message>
    <message>
        <source>n_head %1 x head_dim %2 exceeds 2147483647</source>
        <translation>n_head %1 × head_dim %2 超过 2147483647</translation>
    </message>
    <message>
        <source>this custom shape</source>
        <translation>此自定义形状</translation>
    </message>
    <message>
        <source>%1 differs from vocab_size %2: the Llama family does not pad its vocabulary (Hugging Face&apos;s embedding has vocab_size rows); remove it</source>
        <translation>%1 与 vocab_size %2 不同：Llama 系列不填充词表（Hugging Face 的嵌入恰有 vocab_size 行）；请删除它</translation>
    </message>
    <message>
        <source>%1 differs from %2; remove one of them</source>
        <translation>%1 与 %2 不同；请删除其中之一</translation>
    </message>
</context>
<context>
    <name>ConfigValidation</name>
    <message>
        <source>JSON syntax: %1</source>
        <translation>JSON 语法：%1</translation>
    </message>
</context>
<context>
    <name>HfConfig</name>
    <message>
        <source>missing: every model&apos;s config.json gives it, and it has no default that could stand in for it</source>
        <translation>缺失：每个模型的 config.json 都会给出它，且没有可以替代它的默认值</translation>
    </message>
    <message>
        <source>true or false</source>
        <translation>布尔值 true 或 false</translation>
    </message>
    <message>
        <source>a string</source>
        <translation>字符串</translation>
    </message>
    <message>
        <source>a list of one architecture (%1)</source>
        <translation>只含一个架构的列表（%1）</translation>
    </message>
    <message>
        <source>%1 is not supported: zerolab reads %2</source>
        <translation>不支持 %1：zerolab 读取 %2</translation>
    </message>
    <message>
        <source>%1 is not supported: zerolab reads the model types llama, mistral and qwen2</source>
        <translation>不支持 %1：zerolab 读取的模型类型为 llama、mistral 和 qwen2</translation>
    </message>
    <message>
        <source>%1 contradicts architectures (%2, whose model type is &quot;%3&quot;)</source>
        <translation>%1 与 architectures 矛盾（%2 的模型类型是 &quot;%3&quot;）</translation>
    </message>
    <message>
        <source>missing, and so is model_type: the file does not say which model it describes</source>
        <translation>缺失，model_type 也缺失：文件没有说明它描述的是哪个模型</translation>
    </message>
    <message>
        <source>missing: the scaling&apos;s type (rope_type or type) is not given</source>
        <translation>缺失：未给出缩放类型（rope_type 或 type）</translation>
    </message>
    <message>
        <source>a number &gt;= 1</source>
        <translation>大于等于 1 的数</translation>
    </message>
    <message>
        <source>missing: rope_type %1 needs it</source>
        <translation>缺失：rope_type %1 需要它</translation>
    </message>
    <message>
        <source>a number &gt; 0</source>
        <translation>大于 0 的数</translation>
    </message>
    <message>
        <source>a number &gt; low_freq_factor (%1)</source>
        <translation>大于 low_freq_factor（%1）的数</translation>
    </message>
    <message>
        <source>%1 is not supported: zerolab computes rotary position embedding unscaled, &quot;linear&quot; or &quot;llama3&quot;; any other scaling changes the math</source>
        <translation>不支持 %1：zerolab 计算的旋转位置编码只有不缩放、&quot;linear&quot; 和 &quot;llama3&quot; 三种；其他缩放方式会改变计算</translation>
    </message>
    <message>
        <source>not JSON: %1 (at byte %2)</source>
        <translation>不是 JSON：%1（第 %2 字节）</translation>
    </message>
    <message>
        <source>not JSON: %1</source>
        <translation>不是 JSON：%1</translation>
    </message>
    <message>
        <source>a JSON object</source>
        <translation>一个 JSON 对象</translation>
    </message>
    <message>
        <source>%1 does not divide num_attention_heads (%2): grouped-query attention shares each key/value head among a whole number of query heads</source>
        <translation>%1 不能整除 num_attention_heads（%2）：分组查询注意力让每个键/值头由整数个查询头共享</translation>
    </message>
    <message>
        <source>%1 is odd (or 0): rotary position embedding rotates pairs of dimensions, so a head&apos;s dimension must be even</source>
        <translation>%1 是奇数（或 0）：旋转位置编码成对旋转维度，所以每个头的维度必须是偶数</translation>
    </message>
    <message>
        <source>an object</source>
        <translation>一个对象</translation>
    </message>
    <message>
        <source>missing: rope_parameters must give it</source>
        <translation>缺失：rope_parameters 必须给出它</translation>
    </message>
    <message>
        <source>%1 is not supported: zerolab rotates every dimension of a head</source>
        <translation>不支持 %1：zerolab 旋转每个头的全部维度</translation>
    </message>
    <message>
        <source>null or an object</source>
        <translation>null 或一个对象</translation>
    </message>
    <message>
        <source>%1 is not supported: zerolab&apos;s SwiGLU MLP computes silu(gate) * up</source>
        <translation>不支持 %1：zerolab 的 SwiGLU MLP 计算 silu(gate) * up</translation>
    </message>
    <message>
        <source>a number in [0, 1)</source>
        <translation>取值在 [0, 1) 内的数</translation>
    </message>
    <message>
        <source>%1 is not supported: zerolab trains without dropout</source>
        <translation>不支持 %1：zerolab 训练时不使用 dropout</translation>
    </message>
    <message>
        <source>true is not supported: it gives o_proj a bias too, and zerolab&apos;s attention has biases on q, k and v only (Qwen2&apos;s)</source>
        <translation>不支持 true：它也会给 o_proj 加偏置，而 zerolab 的注意力只在 q、k、v 上有偏置（Qwen2 的方式）</translation>
    </message>
    <message>
        <source>true is not supported: zerolab&apos;s SwiGLU MLP has no biases</source>
        <translation>不支持 true：zerolab 的 SwiGLU MLP 没有偏置</translation>
    </message>
    <message>
        <source>true is not supported: Qwen2 then limits attention to sliding_window tokens from layer max_window_layers on, and zerolab&apos;s attention sees the whole sequence</source>
        <translation>不支持 true：这时 Qwen2 从第 max_window_layers 层起把注意力限制在 sliding_window 个词元内，而 zerolab 的注意力看到整个序列</translation>
    </message>
    <message>
        <source>the shape (hidden_size %1, intermediate_size %2, %3 layers, vocab_size %4) makes more than 2^48 parameters</source>
        <translation>该形状（hidden_size %1，intermediate_size %2，%3 层，vocab_size %4）的参数超过 2^48 个</translation>
    </message>
    <message>
        <source>a sequence of %1 tokens exceeds max_position_embeddings (%2) in %3</source>
        <translation>%1 个词元的序列超过了 %3 中的 max_position_embeddings（%2）</translation>
    </message>
    <message>
        <source>a sequence of %1 tokens exceeds the sliding window (%2) of %3 in %4: zerolab&apos;s attention sees the whole sequence, which equals the model&apos;s attention only up to the window</source>
        <translation>%1 个词元的序列超过了 %4 中 %3 的滑动窗口（%2）：zerolab 的注意力看到整个序列，只有在窗口长度以内才与该模型的注意力相同</translation>
    </message>
    <message>
        <source>%1 is not supported: transformers keeps that embedding row at zero and out of the gradient, which zerolab does not do; set it to null</source>
        <translation>不支持 %1：transformers 让该嵌入行保持为零且不参与梯度，zerolab 不这样做；请将其设为 null</translation>
    </message>
</context>
<context>
    <name>Job</name>
    <message>
        <source>the job printed no run line (stdout: %1)</source>
        <translation>作业没有输出运行行（stdout：%1）</translation>
    </message>
</context>
<context>
    <name>LabCharts</name>
    <message>
        <source>stage %1</source>
        <translation>阶段 %1</translation>
    </message>
    <message>
        <source>Memory per GPU</source>
        <translation>每个 GPU 的显存</translation>
    </message>
    <message>
        <source>Memory per rank</source>
        <translation>每进程内存</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <source>planner</source>
        <translation>规划器</translation>
    </message>
    <message>
        <source>Traffic per rank per step (B/ψ)</source>
        <translation>每步每个进程的通信量（B/ψ）</translation>
    </message>
</context>
<context>
    <name>LabHeadless</name>
    <message>
        <source>zerolab: lesson %1, step %2: run %3/%4 (%5), step %6/%7</source>
        <translation>zerolab：课程 %1，步骤 %2：运行 %3/%4（%5），第 %6/%7 步</translation>
    </message>
    <message>
        <source>zerolab: skipped: %1</source>
        <translation>zerolab：已跳过：%1</translation>
    </message>
    <message>
        <source>zerolab: stopped</source>
        <translation>zerolab：已停止</translation>
    </message>
    <message>
        <source>zerolab: lesson %1, step %2, check %3 (a time, reported, not graded): %4</source>
        <translation>zerolab：课程 %1，步骤 %2，检查 %3（时间，只报告，不评分）：%4</translation>
    </message>
    <message>
        <source>zerolab: lesson %1, step %2, check %3 disagrees: %4</source>
        <translation>zerolab：课程 %1，步骤 %2，检查 %3 不一致：%4</translation>
    </message>
    <message>
        <source>zerolab: run configs and logs are in %1</source>
        <translation>zerolab：运行配置和日志在 %1</translation>
    </message>
</context>
<context>
    <name>LabReport</name>
    <message>
        <source>Lesson %1</source>
        <translation>课程 %1</translation>
    </message>
    <message>
        <source>Student: %1</source>
        <translation>学生：%1</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>核对项</translation>
    </message>
    <message>
        <source>Your answer</source>
        <translation>你的答案</translation>
    </message>
    <message>
        <source>Formula</source>
        <translation>公式</translation>
    </message>
    <message>
        <source>Planner</source>
        <translation>规划器</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <source>Agrees</source>
        <translation>一致</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>Cannot write the lab report %1: %2</source>
        <translation>无法写入实验报告 %1：%2</translation>
    </message>
    <message>
        <source>formula</source>
        <translation>公式</translation>
    </message>
    <message>
        <source>run</source>
        <translation>实测</translation>
    </message>
    <message>
        <source>planner</source>
        <translation>规划器</translation>
    </message>
    <message>
        <source>%1 (graded)</source>
        <translation>%1（评分依据）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>correct sum</source>
        <translation>正确的和</translation>
    </message>
    <message>
        <source>%1 as stated</source>
        <translation>%1 符合所述关系</translation>
    </message>
    <message>
        <source>The chart</source>
        <translation>图表</translation>
    </message>
    <message>
        <source>%1 (%2% apart)</source>
        <translation>%1（相差 %2%）</translation>
    </message>
    <message>
        <source>%1, equal to the formula</source>
        <translation>%1，等于公式值</translation>
    </message>
    <message>
        <source>%1, %2% below the formula</source>
        <translation>%1，比公式低 %2%</translation>
    </message>
    <message>
        <source>%1, %2% above the formula</source>
        <translation>%1，比公式高 %2%</translation>
    </message>
    <message>
        <source>%1 (beyond its %2%)</source>
        <translation>%1（超出其 %2% 容差）</translation>
    </message>
</context>
<context>
    <name>LabUnits</name>
    <message>
        <source>ψ (elements)</source>
        <translation>ψ（元素数）</translation>
    </message>
</context>
<context>
    <name>LabView</name>
    <message>
        <source>&apos;%1&apos; is not a finite number</source>
        <translation>“%1”不是有限的数</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a number: %2</source>
        <translation>“%1”不是数：%2</translation>
    </message>
    <message>
        <source>The chapter: %1 = %2. Correct: %3 = %4.</source>
        <translation>原章节：%1 = %2。正确：%3 = %4。</translation>
    </message>
</context>
<context>
    <name>LinkMeaningLabel</name>
    <message>
        <source>A link preset&apos;s rate is one NIC&apos;s (one port, as sold), and a host has one NIC per GPU, as a DGX A100 or H100 has: the forecast&apos;s ring runs at the node&apos;s rate shared by its GPUs (docs/planner.md, &quot;What the link presets mean between hosts&quot;).</source>
        <translation>链路预设的速率是一块网卡的速率（一个端口，按出售规格），且每台主机每块 GPU 配一块网卡，与英伟达的 A100、H100 整机服务器相同：预测中的环以节点的速率运行，由其各 GPU 分享（见 docs/planner.md 中“主机之间的链路预设是什么意思”一节）。</translation>
    </message>
</context>
<context>
    <name>MemCategory</name>
    <message>
        <source>Params</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>The weights used by forward and backward (bf16 or fp32).</source>
        <translation>前向和反向计算使用的权重（bf16 或 fp32）。</translation>
    </message>
    <message>
        <source>Master params</source>
        <translation>主参数</translation>
    </message>
    <message>
        <source>The fp32 copy of the weights that the optimizer updates.</source>
        <translation>优化器更新的 fp32 权重副本（主权重）。</translation>
    </message>
    <message>
        <source>Grads</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Gradients of the loss with respect to the weights.</source>
        <translation>损失对权重的梯度。</translation>
    </message>
    <message>
        <source>Adam m</source>
        <translation>Adam 动量 m</translation>
    </message>
    <message>
        <source>Adam&apos;s first moment (running mean of the gradient), fp32.</source>
        <translation>Adam 的一阶动量（梯度的滑动平均），fp32。</translation>
    </message>
    <message>
        <source>Adam v</source>
        <translation>Adam 方差 v</translation>
    </message>
    <message>
        <source>Adam&apos;s second moment (running mean of the squared gradient), fp32.</source>
        <translation>Adam 的二阶动量，即方差（梯度平方的滑动平均），fp32。</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>激活值</translation>
    </message>
    <message>
        <source>Forward outputs kept for backward; grows with micro-batch.</source>
        <translation>为反向保留的前向输出；随微批次增大。</translation>
    </message>
    <message>
        <source>Comm buffers</source>
        <translation>通信缓冲区</translation>
    </message>
    <message>
        <source>Staging buffers for the collectives (bucket sizes).</source>
        <translation>集合通信的暂存缓冲区（由桶大小决定）。</translation>
    </message>
    <message>
        <source>CPU engine workspace (not in DeepSpeed)</source>
        <translation>CPU 引擎工作区，DeepSpeed 中没有</translation>
    </message>
    <message>
        <source>zerolab&apos;s CPU engine only: fp32 copies of the bf16 weights its kernels read, and the fp32 gradient staging slot at stages 0-1. DeepSpeed has no such bytes; they are not model states and ZeRO does not shard them.</source>
        <translation>仅 zerolab 的 CPU 引擎才有：其计算内核读取的 bf16 权重的 fp32 副本，以及阶段 0-1 的 fp32 梯度暂存槽。DeepSpeed 没有这部分字节；它们不是模型状态，ZeRO 也不对其分片。</translation>
    </message>
</context>
<context>
    <name>Metric</name>
    <message>
        <source>Step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>Wall time</source>
        <translation>墙钟时间</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>词元数</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>Grad norm</source>
        <translation>梯度范数</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>词元/秒</translation>
    </message>
    <message>
        <source>MFU</source>
        <translation>MFU</translation>
    </message>
    <message>
        <source>fraction</source>
        <translation>比例</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>步时间</translation>
    </message>
    <message>
        <source>Forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <source>Backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>All-reduce</source>
        <translation>全规约</translation>
    </message>
    <message>
        <source>Reduce-scatter</source>
        <translation>归约-散射</translation>
    </message>
    <message>
        <source>All-gather</source>
        <translation>全收集</translation>
    </message>
    <message>
        <source>Broadcast</source>
        <translation>广播</translation>
    </message>
    <message>
        <source>Exposed comm</source>
        <translation>暴露的通信</translation>
    </message>
    <message>
        <source>Traffic per rank</source>
        <translation>每进程通信量</translation>
    </message>
    <message>
        <source>bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <source>Bus bandwidth</source>
        <translation>总线带宽</translation>
    </message>
    <message>
        <source>Traffic within hosts</source>
        <translation>主机内流量</translation>
    </message>
    <message>
        <source>Traffic across hosts</source>
        <translation>跨主机流量</translation>
    </message>
</context>
<context>
    <name>PlanErrata</name>
    <message>
        <source>stage-1 total</source>
        <translation>阶段 1 合计</translation>
    </message>
    <message>
        <source>the table&apos;s total: %1</source>
        <translation>表中的合计：%1</translation>
    </message>
    <message>
        <source>the sum of its own rows (2 + 4 + 4 replicated, 4/N + 4/N sharded): %1</source>
        <translation>表中各行之和（复制 2 + 4 + 4，分片 4/N + 4/N）：%1</translation>
    </message>
    <message>
        <source>saving limit</source>
        <translation>节省上限</translation>
    </message>
    <message>
        <source>stage 1 saves about 22% as N grows</source>
        <translation>随着 N 增大，阶段 1 约节省 22%</translation>
    </message>
    <message>
        <source>sharding m and v (8 of 18 bytes per parameter) saves (8 - 8/N) / 18 = %1 at N = %2, tending to 8/18 = %3</source>
        <translation>对 m 和 v 分片（每参数 18 字节中的 8 字节）节省 (8 - 8/N) / 18 = %1（N = %2），趋于 8/18 = %3</translation>
    </message>
    <message>
        <source>master weights</source>
        <translation>主参数</translation>
    </message>
    <message>
        <source>its layout keeps the fp32 master and fp32 grads replicated: %1</source>
        <translation>它的布局把 fp32 主参数和 fp32 梯度复制在每个进程上：%1</translation>
    </message>
    <message>
        <source>DeepSpeed and the ZeRO paper shard the fp32 master with m and v and keep 16-bit grads (K = 12): %1</source>
        <translation>DeepSpeed 和 ZeRO 论文把 fp32 主参数与 m、v 一起分片，梯度保持 16 位（K = 12）：%1</translation>
    </message>
    <message>
        <source>gradient accumulation</source>
        <translation>梯度累积</translation>
    </message>
    <message>
        <source>parameter sync</source>
        <translation>参数同步</translation>
    </message>
    <message>
        <source>after the local update each rank broadcasts its parameter shard</source>
        <translation>本地更新之后，每个进程广播自己的参数分片</translation>
    </message>
    <message>
        <source>DeepSpeed all-gathers the shards (allgather_partitions: true); a series of broadcasts only when allgather_partitions is false</source>
        <translation>DeepSpeed 对各分片做全收集 (all-gather)（allgather_partitions: true）；只有 allgather_partitions 为 false 时才是一系列广播</translation>
    </message>
    <message>
        <source>%1 psi + %2 psi / N = %1 x %3 + %2 x %3 / %4 = %5</source>
        <translation>%1ψ + %2ψ / N = %1 x %3 + %2 x %3 / %4 = %5</translation>
    </message>
    <message>
        <source>gradient_accumulation_steps = %1 divides fp32 gradient memory by %1: 4 psi / %1 = %2, so stage 1 needs %3 (with %4 of activations)</source>
        <translation>gradient_accumulation_steps = %1 使 fp32 梯度内存除以 %1：4ψ / %1 = %2，于是阶段 1 需要 %3（含 %4 激活值）</translation>
    </message>
    <message>
        <source>gradient_accumulation_steps = %1 divides fp32 gradient memory by %1: 4 psi / %1 = %2, so stage 1&apos;s model states are %3</source>
        <translation>gradient_accumulation_steps = %1 使 fp32 梯度内存除以 %1：4ψ / %1 = %2，于是阶段 1 的模型状态为 %3</translation>
    </message>
    <message>
        <source>accumulation sums micro-batch gradients into the same 4 psi = %1 buffer, so stage 1 still needs %2; it shrinks activations by allowing a smaller micro-batch for the same global batch</source>
        <translation>梯度累积把各微批次的梯度加到同一个 4ψ = %1 的缓冲区中，所以阶段 1 仍需要 %2；它让较小的微批次达到相同的全局批次，从而缩小激活值</translation>
    </message>
    <message>
        <source>communication time</source>
        <translation>通信时间</translation>
    </message>
    <message>
        <source>2 x psi x 4 bytes x (N-1)/N = %1 at psi = 10e9, N = %2 takes tens of seconds over NVLink (600 GB/s) or InfiniBand (200 Gb/s)</source>
        <translation>ψ = 10e9、N = %2 时 2 x ψ x 4 字节 x (N-1)/N = %1，在 NVLink（600 GB/s）或 InfiniBand（200 Gb/s）上需要数十秒</translation>
    </message>
    <message>
        <source>%1 / 600 GB/s = %2 over NVLink, %1 / 25 GB/s = %3 over InfiniBand: well under a second to a few seconds, not tens</source>
        <translation>NVLink 上 %1 / 600 GB/s = %2，InfiniBand 上 %1 / 25 GB/s = %3：从远不到一秒到几秒，而不是数十秒</translation>
    </message>
</context>
<context>
    <name>PlanExplain</name>
    <message>
        <source>ZeRO paper convention (the chapter defines stages 0 and 1 only; stages 2 and 3 are shown as ZeRO shards them)</source>
        <translation>ZeRO 论文的约定（本章只定义了阶段 0 和 1；阶段 2 和 3 按 ZeRO 的分片方式显示）</translation>
    </message>
    <message>
        <source>the chapter&apos;s layout</source>
        <translation>本章的布局</translation>
    </message>
    <message>
        <source>ZeRO paper convention</source>
        <translation>ZeRO 论文的约定</translation>
    </message>
    <message>
        <source>ZeRO stage %1, %2, %3 without master weights</source>
        <translation>ZeRO 阶段 %1，%2，%3，无主参数</translation>
    </message>
    <message>
        <source>ZeRO stage %1, %2, %3</source>
        <translation>ZeRO 阶段 %1，%2，%3</translation>
    </message>
    <message>
        <source>psi = %1 parameters (%2 with each gather unit padded to a multiple of N), N = %3 ranks; %4</source>
        <translation>ψ = %1 个参数（每个收集单元补齐到 N 的倍数后为 %2），N = %3 个进程；%4</translation>
    </message>
    <message>
        <source>psi = %1 parameters, N = %2 ranks; %3</source>
        <translation>ψ = %1 个参数，N = %2 个进程；%3</translation>
    </message>
    <message>
        <source>  %1: none (no fp32 master copy)</source>
        <translation>  %1：无（没有 fp32 主参数副本）</translation>
    </message>
    <message>
        <source>  %1 (%2): %3 x psi / N = %3 x %4 / %5 = %6  (sharded)</source>
        <translation>  %1 (%2)：%3 x ψ / N = %3 x %4 / %5 = %6  （分片）</translation>
    </message>
    <message>
        <source>  %1 (%2): %3 x psi = %3 x %4 = %5  (replicated)</source>
        <translation>  %1 (%2)：%3 x ψ = %3 x %4 = %5  （复制）</translation>
    </message>
    <message>
        <source>Model states per rank (bytes per parameter x psi, / N where sharded):</source>
        <translation>每个进程的模型状态（每参数字节数 x ψ，分片的再 / N）：</translation>
    </message>
    <message>
        <source>  model states = %1 psi + %2 psi / N = %3 + %4 = %5</source>
        <translation>  模型状态 = %1ψ + %2ψ / N = %3 + %4 = %5</translation>
    </message>
    <message>
        <source>Activations per rank (replicated: every rank runs its own micro-batch):</source>
        <translation>每个进程的激活值（复制：每个进程运行自己的微批次）：</translation>
    </message>
    <message>
        <source>  unknown: give a model shape and micro-batch (counted as 0)</source>
        <translation>  未知：请给出模型形状和微批次（按 0 计）</translation>
    </message>
    <message>
        <source>  given directly: %1</source>
        <translation>  直接给出：%1</translation>
    </message>
    <message>
        <source>  GPT-2 activation arena, fp32 (4 bytes), s = T = %1, b = B = %2, h = C = %3, a = heads = %4, L = %5, Vp = %6; recompute %7</source>
        <translation>  GPT-2 激活值区，fp32（4 字节），s = T = %1，b = B = %2，h = C = %3，a = 注意力头数 = %4，L = %5，Vp = %6；重计算 %7</translation>
    </message>
    <message>
        <source>  per layer: 64sbh + 4as^2b + 16sb (ln1, qkv, atty, residual2, ln2, fch, gelu, residual3; attention probabilities; layernorm statistics) = %1</source>
        <translation>  每层：64sbh + 4as^2b + 16sb（ln1、qkv、atty、residual2、ln2、fch、gelu、residual3；注意力概率；layernorm 统计量）= %1</translation>
    </message>
    <message>
        <source>  (Korthikanti et al. 2022 count 34sbh + 5as^2b in fp16 with dropout masks)</source>
        <translation>  （Korthikanti 等人 2022 按 fp16 并含 dropout 掩码计为 34sbh + 5as^2b）</translation>
    </message>
    <message>
        <source>  per layer: 40sbh + 16sb (the matmul outputs, residuals; the attention probabilities, ln1, ln2 and gelu recomputed) = %1</source>
        <translation>  每层：40sbh + 16sb（矩阵乘输出、残差；注意力概率、ln1、ln2 和 gelu 重计算）= %1</translation>
    </message>
    <message>
        <source>  once: 8sbh + 4as^2b for the recomputed ln1, ln2 and attention probabilities = %1 (gelu is recomputed into the d fch gradient buffer)</source>
        <translation>  一次：重计算的 ln1、ln2 和注意力概率占 8sbh + 4as^2b = %1（gelu 重计算到 d fch 梯度缓冲区中）</translation>
    </message>
    <message>
        <source>  per layer: 4sbh (the block&apos;s output, the next block&apos;s input) = %1</source>
        <translation>  每层：4sbh（本块的输出，即下一块的输入）= %1</translation>
    </message>
    <message>
        <source>  once: one block recomputed in backward, 44sbh + 4as^2b + 16sb = %1</source>
        <translation>  一次：反向时重计算一个块，44sbh + 4as^2b + 16sb = %1</translation>
    </message>
    <message>
        <source>  once: embeddings, final layernorm, logits and probs (8sbVp), gradient scratch = the rest of the arena</source>
        <translation>  一次：嵌入、最后的 layernorm、logits 和概率（8sbVp）、梯度暂存 = 激活值区的其余部分</translation>
    </message>
    <message>
        <source>  activations = %1  (%2)</source>
        <translation>  激活值 = %1  （%2）</translation>
    </message>
    <message>
        <source>Comm buffers: a reduce bucket of min(reduce_bucket_size = %1, psi) elements x %2 bytes (%3) + a gather buffer of the largest gather unit x %4 bytes (%5) = %6</source>
        <translation>通信缓冲区：一个 min(reduce_bucket_size = %1, ψ) 个元素的归约桶 x %2 字节 (%3) + 一个最大收集单元大小的收集缓冲区 x %4 字节 (%5) = %6</translation>
    </message>
    <message>
        <source>Comm buffers: a reduce bucket of min(reduce_bucket_size = %1, psi) elements x %2 bytes (%3) = %4</source>
        <translation>通信缓冲区：一个 min(reduce_bucket_size = %1, ψ) 个元素的归约桶 x %2 字节 (%3) = %4</translation>
    </message>
    <message>
        <source>Workspace: %1</source>
        <translation>工作区：%1</translation>
    </message>
    <message>
        <source>Comm buffers (zerolab&apos;s engine, exact): all-gather slots for the embedding and the largest block x %1 bytes (%2); fp32 reduce-scatter slots for the embedding and %3; = %4</source>
        <translation>通信缓冲区（zerolab 引擎，精确）：嵌入和最大块的全收集槽 x %1 字节 (%2)；嵌入和%3的 fp32 归约-散射槽；= %4</translation>
    </message>
    <message>
        <source>Comm buffers (zerolab&apos;s engine, exact): fp32 reduce-scatter slots for the embedding and %1; = %2</source>
        <translation>通信缓冲区（zerolab 引擎，精确）：嵌入和%1的 fp32 归约-散射槽；= %2</translation>
    </message>
    <message>
        <source>Comm buffers (zerolab&apos;s engine, exact): none beyond the gradient buffer (all-reduce in place); = %1</source>
        <translation>通信缓冲区（zerolab 引擎，精确）：梯度缓冲区之外没有（原地全规约）；= %1</translation>
    </message>
    <message>
        <source>Workspace (zerolab&apos;s engine, exact): fp32 copies of the embedding and one block where params are bf16, fp32 gradient staging where grads are not fp32 and not a comm bucket = %1</source>
        <translation>工作区（zerolab 引擎，精确）：参数为 bf16 时嵌入和一个块的 fp32 副本，梯度不是 fp32 且不是通信桶时的 fp32 梯度暂存 = %1</translation>
    </message>
    <message>
        <source>two blocks (overlap_comm)</source>
        <translation>两个块 (overlap_comm)</translation>
    </message>
    <message>
        <source>one block</source>
        <translation>一个块</translation>
    </message>
    <message>
        <source>Total per rank = model states + activations + comm buffers + workspace = %1</source>
        <translation>每个进程合计 = 模型状态 + 激活值 + 通信缓冲区 + 工作区 = %1</translation>
    </message>
    <message>
        <source>all-reduce of the grads: 2 psi</source>
        <translation>梯度的全规约：2ψ</translation>
    </message>
    <message>
        <source>reduce-scatter of the grads (psi) + all-gather of the params (psi): 2 psi</source>
        <translation>梯度的归约-散射 (ψ) + 参数的全收集 (ψ)：2ψ</translation>
    </message>
    <message>
        <source>reduce-scatter of the grads each micro-step (A psi) + all-gather of the params (psi): (A + 1) psi</source>
        <translation>每个微步梯度的归约-散射 (Aψ) + 参数的全收集 (ψ)：(A + 1) ψ</translation>
    </message>
    <message>
        <source>all-gather of the params for forward and for backward (2 psi) + reduce-scatter of the grads (psi), each micro-step: 3 A psi</source>
        <translation>每个微步：前向和反向各一次参数的全收集 (2ψ) + 梯度的归约-散射 (ψ)：3 Aψ</translation>
    </message>
    <message>
        <source>Communication per optimizer step (A = %1 micro-steps): %2 = %3 elements = %4</source>
        <translation>每个优化器步的通信量（A = %1 个微步）：%2 = %3 个元素 = %4</translation>
    </message>
    <message>
        <source> (zerolab&apos;s engine gathers less than 2A psi: its slots keep the tied embedding for the whole step and the units at the forward/backward turn)</source>
        <translation>（zerolab 引擎收集的少于 2Aψ：它的槽在整步中保留共享的嵌入，并在前向/反向交界处保留各单元）</translation>
    </message>
    <message>
        <source>  traffic per rank (ring: each psi above x (N - 1) / N) = %1 = %2 elements%3%4</source>
        <translation>  每个进程的通信量（环形算法：上面每个 ψ x (N - 1) / N）= %1 = %2 个元素%3%4</translation>
    </message>
    <message>
        <source>  time = traffic / bandwidth = %1 / %2 GB/s = %3 s</source>
        <translation>  时间 = 通信量 / 带宽 = %1 / %2 GB/s = %3 s</translation>
    </message>
    <message>
        <source>Device %1: %2 - %3 reserved (CUDA context, cuBLAS, NCCL, fragmentation) = %4 usable; fits with %5 to spare</source>
        <translation>设备 %1：%2 - %3 预留（CUDA 上下文、cuBLAS、NCCL、碎片）= %4 可用；放得下，余 %5</translation>
    </message>
    <message>
        <source>Device %1: %2 - %3 reserved (CUDA context, cuBLAS, NCCL, fragmentation) = %4 usable; short by %5</source>
        <translation>设备 %1：%2 - %3 预留（CUDA 上下文、cuBLAS、NCCL、碎片）= %4 可用；还差 %5</translation>
    </message>
    <message>
        <source>binary units, 1 GiB = 2^30 bytes</source>
        <translation>二进制单位，1 GiB = 2^30 字节</translation>
    </message>
    <message>
        <source>decimal units, 1 GB = 1e9 bytes</source>
        <translation>十进制单位，1 GB = 1e9 字节</translation>
    </message>
    <message>
        <source>bf16 with fp32 gradients (data_types.grad_accum_dtype)</source>
        <translation>bf16，fp32 梯度（data_types.grad_accum_dtype）</translation>
    </message>
    <message>
        <source>Offload: none at this stage (offload_optimizer needs stage 1-3, offload_param stage 3)</source>
        <translation>卸载：此阶段不卸载（offload_optimizer 需要阶段 1-3，offload_param 需要阶段 3）</translation>
    </message>
    <message>
        <source>ZeRO-Offload (forecast; zerolab&apos;s runtime does not offload):</source>
        <translation>ZeRO-Offload（仅预测；zerolab 的运行时并不卸载）：</translation>
    </message>
    <message>
        <source>  %1: %2 moves to %3 (%4)</source>
        <translation>  %1：%2 移到%3（%4）</translation>
    </message>
    <message>
        <source>host memory</source>
        <translation>主机内存</translation>
    </message>
    <message>
        <source>  per rank: device %1, host memory %2, NVMe %3</source>
        <translation>  每个进程：设备 %1，主机内存 %2，NVMe %3</translation>
    </message>
    <message>
        <source>  per node (%1 ranks): host memory %2, NVMe %3</source>
        <translation>  每个节点（%1 个进程）：主机内存 %2，NVMe %3</translation>
    </message>
    <message>
        <source>  PCIe per step (grad shard down, params up) = %1 = %2 s at %3 GB/s</source>
        <translation>  每步 PCIe 流量（梯度分片下行，参数上行）= %1 = %2 秒（%3 GB/s）</translation>
    </message>
    <message>
        <source>  DeepSpeed&apos;s estimate_zero2_model_states_mem_needs (cpu_offload): GPU 2 psi = %1, CPU psi x max(4 x %2, 16) x 1.5 = %3 per node</source>
        <translation>  DeepSpeed 的 estimate_zero2_model_states_mem_needs（cpu_offload）：GPU 2ψ = %1，CPU ψ x max(4 x %2, 16) x 1.5 = 每节点 %3</translation>
    </message>
    <message>
        <source>  DeepSpeed&apos;s estimate_zero3_model_states_mem_needs (offload_param + offload_optimizer): GPU 4 x largest layer = %1, CPU 18 psi / nodes x 1.5 = %2 per node</source>
        <translation>  DeepSpeed 的 estimate_zero3_model_states_mem_needs（offload_param + offload_optimizer）：GPU 4 x 最大层 = %1，CPU 18ψ / 节点数 x 1.5 = 每节点 %2</translation>
    </message>
    <message>
        <source>  DeepSpeed&apos;s estimate_zero3_model_states_mem_needs: GPU 4 x largest layer + 2 psi / N = %1, CPU %2 psi / nodes x 1.5 = %3 per node</source>
        <translation>  DeepSpeed 的 estimate_zero3_model_states_mem_needs：GPU 4 x 最大层 + 2ψ / N = %1，CPU %2ψ / 节点数 x 1.5 = 每节点 %3</translation>
    </message>
    <message>
        <source>  They differ from the forecast above: their multipliers assume fp16 parameters with fp32 gradients, master, m and v (18 bytes a parameter, 16 without the fp16 gradients), where zerolab counts its own dtypes and shards; their 1.5 stands for pinned buffers zerolab does not hold; the largest layer stands for the gather buffers, which zerolab sizes exactly (comm buffers above); they count no activations, comm buckets or workspace; and their CPU figure is per node with the rank count folded into a max(), not per rank</source>
        <translation>  它们与上面的预测不同：其系数假设 fp16 参数加 fp32 梯度、主参数、m 和 v（每个参数 18 字节，不含 fp16 梯度时 16 字节），而 zerolab 按自己的数据类型和分片计数；其 1.5 代表 zerolab 并不持有的锁页缓冲区；最大层代表收集缓冲区，zerolab 精确计算其大小（见上面的通信缓冲区）；它们不计激活值、通信桶和工作区；其 CPU 数字是每节点的，进程数折进了 max() 中，而不是每个进程的</translation>
    </message>
    <message>
        <source>  by link, hosts of %1 consecutive ranks: within a host %2, across hosts %3</source>
        <translation>  按链路，每台主机 %1 个连续进程：主机内 %2，跨主机 %3</translation>
    </message>
    <message>
        <source>ZeRO++ (Wang et al. 2023), cross-node bytes per micro-step, M = 2 psi = %1: stage 3 sends 3M (forward all-gather M, backward all-gather M, reduce-scatter M); qwZ&apos;s int8 halves forward&apos;s (0.5M), hpZ keeps backward&apos;s on the host (0), qgZ&apos;s int4 quarters the gradients&apos; (0.25M): 0.75M = %2</source>
        <translation>ZeRO++（Wang 等，2023），每个微步的跨节点字节数，M = 2ψ = %1：阶段 3 发送 3M（前向 all-gather M、反向 all-gather M、reduce-scatter M）；qwZ 的 int8 使前向减半（0.5M），hpZ 让反向留在主机内（0），qgZ 的 int4 使梯度变为四分之一（0.25M）：0.75M = %2</translation>
    </message>
    <message>
        <source>  on:%1%2%3 (hpZ groups of %4, int8 blocks of DeepSpeed&apos;s group rule, int4 blocks of %5)</source>
        <translation>  已开启：%1%2%3（hpZ 每组 %4 个进程，int8 块按 DeepSpeed 的分组规则，int4 块大小 %5）</translation>
    </message>
    <message>
        <source>  this engine, per optimizer step: across hosts %1 against plain stage 3&apos;s %2 (%3x), within hosts %4 against %5; scales and the reduce-scattered fallback units included</source>
        <translation>  本引擎，每个优化器步：跨主机 %1，普通阶段 3 为 %2（%3 倍）；主机内 %4，普通阶段 3 为 %5；已计入缩放因子和回退为 reduce-scatter 的单元</translation>
    </message>
    <message>
        <source>Korthikanti et al. 2022, L x %1 (%2, micro-batch %3, recompute %4)</source>
        <translation>Korthikanti 等人 2022 年的公式，L x %1（%2，微批次 %3，重计算 %4）</translation>
    </message>
    <message>
        <source>  from %1: %2</source>
        <translation>  来自 %1：%2</translation>
    </message>
    <message>
        <source>  attention %1: no (T,T) probabilities are kept, only each query row&apos;s log-sum-exp (4asb)</source>
        <translation>  注意力 %1：不保留 (T,T) 概率，只保留每个查询行的 log-sum-exp（4asb）</translation>
    </message>
    <message>
        <source>  per layer: 64sbh + 4asb + 16sb (ln1, qkv, atty, residual2, ln2, fch, gelu, residual3; the log-sum-exp; layernorm statistics) = %1</source>
        <translation>  每层：64sbh + 4asb + 16sb（ln1、qkv、atty、residual2、ln2、fch、gelu、residual3；log-sum-exp；layernorm 统计量）= %1</translation>
    </message>
    <message>
        <source>  per layer: 40sbh + 4asb + 16sb (the matmul outputs, residuals, the log-sum-exp; ln1, ln2 and gelu recomputed) = %1</source>
        <translation>  每层：40sbh + 4asb + 16sb（矩阵乘输出、残差、log-sum-exp；ln1、ln2 和 gelu 重计算）= %1</translation>
    </message>
    <message>
        <source>  once: 8sbh for the recomputed ln1 and ln2 = %1 (gelu is recomputed into the d fch gradient buffer)</source>
        <translation>  一次：重计算的 ln1 和 ln2 占 8sbh = %1（gelu 重计算到 d fch 梯度缓冲区中）</translation>
    </message>
    <message>
        <source>  once: one block recomputed in backward, 44sbh + 4asb + 16sb = %1</source>
        <translation>  一次：反向时重计算一个块，44sbh + 4asb + 16sb = %1</translation>
    </message>
    <message>
        <source>  Llama activation arena, fp32 (4 bytes), s = T = %1, b = B = %2, h = %3, a = %4 heads, k = %5 kv heads, d = %6, Q = ad, K = kd, f = %7, L = %8, Vp = %9</source>
        <translation>  Llama 激活值区，fp32（4 字节），s = T = %1，b = B = %2，h = %3，a = %4 个注意力头，k = %5 个 KV 头，d = %6，Q = ad，K = kd，f = %7，L = %8，Vp = %9</translation>
    </message>
    <message>
        <source>  recompute %1; flash attention: no (T,T) scores are kept, only each query row&apos;s log-sum-exp; k and v stay at the kv heads (no copies per query head)</source>
        <translation>  重计算 %1；flash 注意力：不保留 (T,T) 分数，只保留每个查询行的 log-sum-exp；k 和 v 保持 KV 头数（不为每个查询头复制）</translation>
    </message>
    <message>
        <source>  per layer: 16sbh + 8sbQ + 8sbK + 12sbf + 4(2 + a)sb (block input, ln1, residual2, ln2; q, atty; k, v; gate, up, swiglu; both norms&apos; 1/rms and the log-sum-exp) = %1</source>
        <translation>  每层：16sbh + 8sbQ + 8sbK + 12sbf + 4(2 + a)sb（块输入、ln1、residual2、ln2；q、atty；k、v；gate、up、swiglu；两个归一化的 1/rms 和 log-sum-exp）= %1</translation>
    </message>
    <message>
        <source>  (Korthikanti et al. 2022 count 34sbh + 5as^2b for GPT in fp16: no GQA, a 4h GeLU, dropout masks, the (T,T) scores)</source>
        <translation>  （Korthikanti 等人 2022 对 GPT 按 fp16 计为 34sbh + 5as^2b：无 GQA、4h 宽的 GeLU、dropout 掩码、(T,T) 分数）</translation>
    </message>
    <message>
        <source>  per layer: 8sbh + 8sbQ + 8sbK + 8sbf + 4(2 + a)sb (the matmul outputs, residuals, 1/rms and the log-sum-exp; ln1, ln2 and swiglu recomputed) = %1</source>
        <translation>  每层：8sbh + 8sbQ + 8sbK + 8sbf + 4(2 + a)sb（矩阵乘输出、残差、1/rms 和 log-sum-exp；ln1、ln2 和 swiglu 重计算）= %1</translation>
    </message>
    <message>
        <source>  once: 8sbh for the recomputed ln1 and ln2 = %1 (swiglu is recomputed into the d gate gradient buffer)</source>
        <translation>  一次：重计算的 ln1 和 ln2 占 8sbh = %1（swiglu 重计算到 d gate 梯度缓冲区中）</translation>
    </message>
    <message>
        <source>  once: one block recomputed in backward, 12sbh + 8sbQ + 8sbK + 8sbf + 4(2 + a)sb = %1</source>
        <translation>  一次：反向时重计算一个块，12sbh + 8sbQ + 8sbK + 8sbf + 4(2 + a)sb = %1</translation>
    </message>
    <message>
        <source>  once: embeddings, the RoPE table (4sd), final norm, logits and probs (8sbVp), gradient scratch = the rest of the arena</source>
        <translation>  一次：嵌入、RoPE 表（4sd）、最后的归一化、logits 和概率（8sbVp）、梯度暂存 = 激活值区的其余部分</translation>
    </message>
</context>
<context>
    <name>Status</name>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>lost</source>
        <translation>已失联</translation>
    </message>
    <message>
        <source>stalled</source>
        <translation>已卡住</translation>
    </message>
    <message>
        <source>info</source>
        <translation>信息</translation>
    </message>
    <message>
        <source>warn</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>待运行</translation>
    </message>
    <message>
        <source>timeout</source>
        <translation>超时</translation>
    </message>
    <message>
        <source>oom</source>
        <translation>内存不足</translation>
    </message>
    <message>
        <source>pruned</source>
        <translation>已剪除</translation>
    </message>
    <message>
        <source>invalid</source>
        <translation>无效</translation>
    </message>
    <message>
        <source>skipped</source>
        <translation>已跳过</translation>
    </message>
</context>
<context>
    <name>StepForecast</name>
    <message>
        <source>This machine (calibrated %1)</source>
        <translation>本机（校准于 %1）</translation>
    </message>
    <message>
        <source>%1 × %2 · %3</source>
        <translation>%1 × %2 · %3</translation>
    </message>
    <message>
        <source>this machine, calibrated on %1 (%2)</source>
        <translation>本机，校准于 %1（%2）</translation>
    </message>
    <message>
        <source>cluster preset: one host of %1 × %2 (datasheet peaks at %3% of the matmul peak)</source>
        <translation>集群预设：一台主机，%1 × %2（数据手册峰值，矩阵乘法按峰值的 %3% 计）</translation>
    </message>
    <message>
        <source>cluster preset: %1 hosts × %2 %3, %4 between them (datasheet peaks at %5% of the matmul peak)</source>
        <translation>集群预设：%1 台主机 × %2 块 %3，主机间为 %4（数据手册峰值，矩阵乘法按峰值的 %5% 计）</translation>
    </message>
    <message>
        <source>%1 × %2 (one host)</source>
        <translation>%1 × %2（一台主机）</translation>
    </message>
    <message>
        <source>%1 hosts × %2 %3 · %4</source>
        <translation>%1 台主机 × %2 块 %3 · %4</translation>
    </message>
    <message>
        <source>1 NIC</source>
        <translation>1 块网卡</translation>
    </message>
    <message>
        <source>%1 NICs</source>
        <translation>%1 块网卡</translation>
    </message>
    <message>
        <source>%1 between hosts: %2 per GPU · %3 per node = %4 per node</source>
        <translation>主机之间为 %1：每 GPU %2 · 每节点 %3 = 每节点 %4</translation>
    </message>
</context>
<context>
    <name>Sweep</name>
    <message>
        <source>search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <source>buckets</source>
        <translation>桶大小</translation>
    </message>
    <message>
        <source>repeat</source>
        <translation>重复</translation>
    </message>
    <message>
        <source>forecast %1 per rank &gt; capacity %2 (%3)</source>
        <translation>预测每个进程 %1 &gt; 容量 %2（%3）</translation>
    </message>
    <message>
        <source>micro-batch %1 ended %2</source>
        <translation>微批次 %1 的结果：%2</translation>
    </message>
    <message>
        <source>throughput stopped rising at micro-batch %1 (%2 &lt;= %3 tokens/s)</source>
        <translation>吞吐量在微批次 %1 处不再上升（%2 &lt;= %3 词元/s）</translation>
    </message>
    <message>
        <source>the same config as trial %1</source>
        <translation>与试验 %1 的配置相同</translation>
    </message>
    <message>
        <source>interrupted by the sweep&apos;s stop</source>
        <translation>因扫描停止而中断</translation>
    </message>
    <message>
        <source>killed at the trial timeout of %1 s</source>
        <translation>达到试验超时 %1 s，已强制结束</translation>
    </message>
    <message>
        <source>no measured step was recorded</source>
        <translation>没有记录到可测量的步</translation>
    </message>
    <message>
        <source>interrupted (run %1); run again on resume</source>
        <translation>已中断（运行 %1）；继续时重新运行</translation>
    </message>
    <message>
        <source>no trial finished (%1 of %2 candidates ran); trial %3 %4: %5</source>
        <translation>没有试验完成（%2 个候选中运行了 %1 个）；试验 %3 %4：%5</translation>
    </message>
    <message>
        <source>no trial finished (none of %1 candidates ran)</source>
        <translation>没有试验完成（%1 个候选都未运行）</translation>
    </message>
</context>
<context>
    <name>Timeline</name>
    <message>
        <source>Forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <source>Backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <source>Recompute</source>
        <translation>重计算</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>数据</translation>
    </message>
    <message>
        <source>Checkpoint</source>
        <translation>检查点</translation>
    </message>
    <message>
        <source>Collective</source>
        <translation>集合通信</translation>
    </message>
    <message>
        <source>Wait</source>
        <translation>等待</translation>
    </message>
    <message>
        <source>Control all-reduce</source>
        <translation>控制全规约</translation>
    </message>
    <message>
        <source>The forward of one gather unit for one micro-batch.</source>
        <translation>一个收集单元对一个微批次的前向。</translation>
    </message>
    <message>
        <source>The backward of one gather unit (recompute excluded).</source>
        <translation>一个收集单元的反向（不含重计算）。</translation>
    </message>
    <message>
        <source>The forward recomputed for one unit&apos;s backward (model.recompute).</source>
        <translation>为一个单元的反向而重算的前向（model.recompute）。</translation>
    </message>
    <message>
        <source>The optimizer step on this rank&apos;s partition.</source>
        <translation>本进程分区上的优化器更新。</translation>
    </message>
    <message>
        <source>Loading the next micro-batch.</source>
        <translation>加载下一个微批次。</translation>
    </message>
    <message>
        <source>Writing a checkpoint.</source>
        <translation>写入检查点。</translation>
    </message>
    <message>
        <source>A collective in flight.</source>
        <translation>进行中的集合通信。</translation>
    </message>
    <message>
        <source>The compute thread blocked on a collective: exposed communication, the time overlap did not hide. Hover it to see which collective.</source>
        <translation>计算线程阻塞在集合通信上：即暴露的通信，重叠未能隐藏的时间。悬停可查看是哪一个集合通信。</translation>
    </message>
    <message>
        <source>The per-step control all-reduce (stop, pause and commands agreement).</source>
        <translation>每步一次的控制全规约（就停止、暂停和命令达成一致）。</translation>
    </message>
    <message>
        <source>all-reduce</source>
        <translation>全规约</translation>
    </message>
    <message>
        <source>reduce-scatter</source>
        <translation>归约-散射</translation>
    </message>
    <message>
        <source>all-gather</source>
        <translation>全收集</translation>
    </message>
    <message>
        <source>broadcast</source>
        <translation>广播</translation>
    </message>
    <message>
        <source>Gradients summed over all ranks (stages 0-1), or the one-float grad-norm reduction.</source>
        <translation>在所有进程上求和的梯度（阶段 0-1），或单个浮点数的梯度范数规约。</translation>
    </message>
    <message>
        <source>Gradients summed into the owning rank&apos;s shard (stages 2-3, or stage 1 with reduce_scatter).</source>
        <translation>求和到所属进程分片中的梯度（阶段 2-3，或开启 reduce_scatter 的阶段 1）。</translation>
    </message>
    <message>
        <source>Parameter shards gathered: ZeRO-3 before each unit&apos;s forward and backward, stages 1-2 after the optimizer.</source>
        <translation>收集参数分片：ZeRO-3 在每个单元的前向和反向之前，阶段 1-2 在优化器之后。</translation>
    </message>
    <message>
        <source>Parameter shards sent by their owner (allgather_partitions: false).</source>
        <translation>由所属进程发送的参数分片（allgather_partitions: false）。</translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>opt</source>
        <translation>优化</translation>
    </message>
    <message>
        <source>data</source>
        <translation>数据</translation>
    </message>
    <message>
        <source>checkpoint</source>
        <translation>检查点</translation>
    </message>
    <message>
        <source>ckpt</source>
        <translation>检查点</translation>
    </message>
    <message>
        <source>wait</source>
        <translation>等待</translation>
    </message>
    <message>
        <source>ctl</source>
        <translation>控制</translation>
    </message>
    <message>
        <source>Wait for %1</source>
        <translation>等待%1</translation>
    </message>
    <message>
        <source>&lt;b&gt;rank %1 · %2&lt;/b&gt;</source>
        <translation>&lt;b&gt;进程 %1 · %2&lt;/b&gt;</translation>
    </message>
    <message>
        <source>unit %1</source>
        <translation>单元 %1</translation>
    </message>
    <message>
        <source>micro-batch %1</source>
        <translation>微批次 %1</translation>
    </message>
    <message>
        <source>collective #%1</source>
        <translation>集合通信 #%1</translation>
    </message>
    <message>
        <source>&lt;br&gt;%1 buffer</source>
        <translation>&lt;br&gt;缓冲区 %1</translation>
    </message>
    <message>
        <source>&lt;br&gt;issued at %1, queued %2</source>
        <translation>&lt;br&gt;发起于 %1，排队 %2</translation>
    </message>
    <message>
        <source>&lt;br&gt;start %1 · duration %2</source>
        <translation>&lt;br&gt;开始 %1 · 持续 %2</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;i&gt;compute blocked: exposed communication&lt;/i&gt;</source>
        <translation>&lt;br&gt;&lt;i&gt;计算被阻塞：暴露的通信&lt;/i&gt;</translation>
    </message>
    <message>
        <source>Wait (exposed comm)</source>
        <translation>等待（暴露的通信）</translation>
    </message>
    <message>
        <source>queued (issued, not yet running)</source>
        <translation>排队（已发起，尚未执行）</translation>
    </message>
    <message>
        <source>A collective handed to the communicator while an earlier one still runs: the pale part before its bar.</source>
        <translation>在前一个集合通信仍在执行时交给通信器的集合通信：即其条形前的浅色部分。</translation>
    </message>
</context>
<context>
    <name>Units</name>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分</translation>
    </message>
</context>
<context>
    <name>zerolab::BandwidthCard</name>
    <message>
        <source>Step time against the link between hosts</source>
        <translation>步时间与主机间链路带宽</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>GPUs per host</source>
        <translation>每台主机的 GPU 数</translation>
    </message>
    <message>
        <source>ZeRO %1</source>
        <translation>ZeRO %1</translation>
    </message>
    <message>
        <source>Bandwidth between hosts per GPU (Gb/s)</source>
        <translation>每 GPU 的主机间带宽（Gb/s）</translation>
    </message>
    <message>
        <source>Step time (%1)</source>
        <translation>步时间（%1）</translation>
    </message>
    <message>
        <source>s</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>毫秒</translation>
    </message>
    <message>
        <source>No forecast: %1</source>
        <translation>无法预测：%1</translation>
    </message>
    <message>
        <source>N = %1 fits on one host of %2 GPUs: no link between hosts, the lines are flat. Raise N above %2, or put fewer GPUs on a host.</source>
        <translation>N = %1 可放在一台 %2 GPU 的主机上：没有主机间链路，曲线是平的。请把 N 调到 %2 以上，或让每台主机放更少的 GPU。</translation>
    </message>
    <message>
        <source>On %1 hosts, stage 3&apos;s extra gathers hide behind compute at every bandwidth drawn (exposed under 5% of the step).</source>
        <translation>在 %1 台主机上，阶段 3 额外的参数收集 在图中每个带宽下都被计算掩盖（暴露部分低于步时间的 5%）。</translation>
    </message>
    <message>
        <source>On %1 hosts, stage 3&apos;s extra gathers hide behind compute from %2 between hosts (exposed under 5% of the step); below it they show: at %3, stage 3 takes %4 a step against stage 1&apos;s %5.</source>
        <translation>在 %1 台主机上，主机间带宽达到 %2 起，阶段 3 额外的参数收集 被计算掩盖（暴露部分低于步时间的 5%）；低于它就会显露：在 %3 下，阶段 3 每步 %4，阶段 1 为 %5。</translation>
    </message>
    <message>
        <source>On %1 hosts, stage 3&apos;s extra gathers are never hidden up to %2: its exposed communication stays above 5% of the step.</source>
        <translation>在 %1 台主机上，直到 %2 阶段 3 额外的参数收集 都未被掩盖：其暴露通信始终高于步时间的 5%。</translation>
    </message>
    <message>
        <source>Forecast from %1; micro-batch %2, T = %3.</source>
        <translation>预测依据：%1；微批次 %2，T = %3。</translation>
    </message>
    <message>
        <source>ZeRO %1 (does not fit)</source>
        <translation>ZeRO %1（放不下）</translation>
    </message>
</context>
<context>
    <name>zerolab::CalibrateClient</name>
    <message>
        <source>across hosts</source>
        <translation>跨主机</translation>
    </message>
    <message>
        <source>within the host</source>
        <translation>主机内</translation>
    </message>
    <message numerus="yes">
        <source>Planned %n measurement(s)</source>
        <translation>
            <numerusform>计划 %n 项测量</numerusform>
        </translation>
    </message>
    <message>
        <source>Kernels</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>Collectives over %1 ranks %2</source>
        <translation>%1 个进程的集合通信（%2）</translation>
    </message>
    <message>
        <source>Compute with %1 ranks at once %2</source>
        <translation>%1 个进程同时计算（%2）</translation>
    </message>
    <message>
        <source>Profile written</source>
        <translation>配置档已写入</translation>
    </message>
    <message>
        <source>%1 (%2 of %3): %4</source>
        <translation>%1（第 %2 项，共 %3 项）：%4</translation>
    </message>
    <message>
        <source>%1 did not start: %2</source>
        <translation>%1 未能启动：%2</translation>
    </message>
    <message>
        <source>zerolab-calibrate was killed (%1)</source>
        <translation>zerolab-calibrate 被终止（%1）</translation>
    </message>
    <message>
        <source>zerolab-calibrate failed (exit %1): %2</source>
        <translation>zerolab-calibrate 失败（退出码 %1）：%2</translation>
    </message>
    <message>
        <source>no message</source>
        <translation>无消息</translation>
    </message>
    <message>
        <source>A step&apos;s pieces in situ</source>
        <translation>一步各部分的现场计时</translation>
    </message>
</context>
<context>
    <name>zerolab::ChartActions</name>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Shown full screen: Esc brings the chart back.</source>
        <translation>正在全屏显示：按 Esc 键返回图表。</translation>
    </message>
    <message>
        <source>Esc leaves full screen</source>
        <translation>按 Esc 键退出全屏</translation>
    </message>
    <message>
        <source>Leave full screen</source>
        <translation>退出全屏</translation>
    </message>
    <message>
        <source>Show full screen</source>
        <translation>全屏显示</translation>
    </message>
    <message>
        <source>Copy chart</source>
        <translation>复制图表</translation>
    </message>
    <message>
        <source>Save chart as SVG</source>
        <translation>将图表保存为 SVG</translation>
    </message>
    <message>
        <source>SVG image (*.svg)</source>
        <translation>SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <source>Save chart as PNG</source>
        <translation>将图表保存为 PNG</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>Save chart</source>
        <translation>保存图表</translation>
    </message>
    <message>
        <source>Save chart as PNG…</source>
        <translation>将图表保存为 PNG…</translation>
    </message>
    <message>
        <source>Save chart as SVG…</source>
        <translation>将图表保存为 SVG…</translation>
    </message>
    <message>
        <source>Cannot render the chart for %1</source>
        <translation>无法为 %1 绘制图表</translation>
    </message>
</context>
<context>
    <name>zerolab::CommsSummaryDialog</name>
    <message>
        <source>Comms summary: %1</source>
        <translation>通信汇总：%1</translation>
    </message>
    <message>
        <source>No summary: %1</source>
        <translation>无法汇总：%1</translation>
    </message>
    <message>
        <source>This run stored no step timeline (run.timeline_every 0), so there are no collectives to summarise.</source>
        <translation>这个运行没有存储步骤时间线（run.timeline_every 为 0），因此没有可汇总的集合通信。</translation>
    </message>
    <message numerus="yes">
        <source>Rank 0&apos;s collectives in the %n sampled step(s) of this run (run.timeline_every), as the comms logger&apos;s log_summary prints them. Below it the same rows split: Wait is the time until the last rank entered the collective (a rank that arrives early waits inside the call: skew, not a slow link), Transfer the rest, and busbw_xfer the bus bandwidth of the transfer alone.</source>
        <translation>
            <numerusform>进程 0 在这个运行的 %n 个采样步骤中的集合通信（run.timeline_every），与 comms_logger 的 log_summary 打印的一样。其下是拆分后的同样各行：Wait 是直到最后一个进程进入该集合通信的时间（早到的进程在调用里等待：这是进程间的时间差，不是链路慢），Transfer 是其余部分，busbw_xfer 是只按传输部分计算的总线带宽。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>zerolab::CompareView</name>
    <message>
        <source>%1 seg %2</source>
        <translation>%1 段 %2</translation>
    </message>
    <message>
        <source>seg %1: %2–%3</source>
        <translation>段 %1：%2–%3</translation>
    </message>
    <message>
        <source>seg %1: from %2</source>
        <translation>段 %1：自 %2 起</translation>
    </message>
    <message>
        <source>%1
ZeRO %2
N=%3</source>
        <translation>%1
ZeRO %2
N=%3</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>%1
seg %2</source>
        <translation>%1
段 %2</translation>
    </message>
    <message>
        <source>Differences only</source>
        <translation>仅显示差异</translation>
    </message>
    <message>
        <source>Runs to compare</source>
        <translation>要比较的运行</translation>
    </message>
    <message>
        <source>Tick two or more runs, or select them in the Runs panel and press Compare.</source>
        <translation>勾选两个或更多运行，或在“运行”面板中选中它们后按“比较”。</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>Wall time</source>
        <translation>墙钟时间</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>词元数</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>x axis</source>
        <translation>x 轴</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Segment</source>
        <translation>段</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>N</source>
        <translation>N</translation>
    </message>
    <message>
        <source>Accum.</source>
        <translation>累积</translation>
    </message>
    <message>
        <source>Micro</source>
        <translation>微批次</translation>
    </message>
    <message>
        <source>States/rank</source>
        <translation>状态/进程</translation>
    </message>
    <message>
        <source>Peak/rank</source>
        <translation>峰值/进程</translation>
    </message>
    <message>
        <source>Micro-batch: samples per rank per micro-step</source>
        <translation>微批次：每个进程每个微步的样本数</translation>
    </message>
    <message>
        <source>Model states: params, master params, grads and optimizer m, v of the largest rank at the segment&apos;s last logged step</source>
        <translation>模型状态：该段最后记录的一步中占用最大的进程的参数、主参数、梯度和优化器 m、v</translation>
    </message>
    <message>
        <source>Overlay</source>
        <translation>叠加</translation>
    </message>
    <message>
        <source>Config</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>Memory, rank 0 at the last step</source>
        <translation>内存，进程 0 在最后一步</translation>
    </message>
    <message>
        <source>#%1 %2
stage %3, N=%4</source>
        <translation>#%1 %2
阶段 %3，N=%4</translation>
    </message>
    <message>
        <source>(run)</source>
        <translation>（运行）</translation>
    </message>
    <message>
        <source>(segment)</source>
        <translation>（段）</translation>
    </message>
    <message>
        <source>&lt;p style=&apos;font-size:14pt; font-weight:600; color:%1&apos;&gt;Nothing to compare yet&lt;/p&gt;&lt;p style=&apos;color:%2&apos;&gt;Tick at least two runs on the left.&lt;/p&gt;</source>
        <translation>&lt;p style=&apos;font-size:14pt; font-weight:600; color:%1&apos;&gt;还没有可比较的内容&lt;/p&gt;&lt;p style=&apos;color:%2&apos;&gt;请在左侧至少勾选两个运行。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Within</source>
        <translation>主机内</translation>
    </message>
    <message>
        <source>Bytes a rank sent per step to ranks of its own host (median of the logged steps)</source>
        <translation>一个进程每步发往本主机其他进程的字节数（已记录各步的中位数）</translation>
    </message>
    <message>
        <source>Bytes a rank sent per step to ranks of other hosts (median of the logged steps)</source>
        <translation>一个进程每步发往其他主机上进程的字节数（已记录各步的中位数）</translation>
    </message>
    <message>
        <source>Across</source>
        <translation>跨主机</translation>
    </message>
    <message>
        <source>no calibrated profile in the store (zerolab-calibrate --db)</source>
        <translation>存储中没有校准的配置档（zerolab-calibrate --db）</translation>
    </message>
    <message>
        <source>the run&apos;s stored config cannot be read</source>
        <translation>无法读取这个运行存储的配置</translation>
    </message>
    <message>
        <source>Tokens/s</source>
        <translation>词元/秒</translation>
    </message>
    <message>
        <source>Exposed</source>
        <translation>暴露的通信</translation>
    </message>
    <message>
        <source>Forecast</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>Throughput: median tokens/s of the logged steps</source>
        <translation>吞吐量：已记录各步词元/秒的中位数</translation>
    </message>
    <message>
        <source>Median step time of the logged steps (rank 0)</source>
        <translation>已记录各步步骤时间的中位数（进程 0）</translation>
    </message>
    <message>
        <source>Exposed communication: median time a step&apos;s compute waited on collectives (mean over ranks)</source>
        <translation>暴露通信：一步中计算等待集合通信的时间的中位数（各进程的平均）</translation>
    </message>
    <message>
        <source>The step-time model&apos;s step for this config on this machine&apos;s calibrated profile; a cell&apos;s tooltip says why one is missing</source>
        <translation>步骤时间模型在本机校准配置档上对这个配置预测的一步时间；缺少时单元格的提示说明原因</translation>
    </message>
    <message>
        <source>Peak memory per rank: the largest rank&apos;s at the segment&apos;s last logged step</source>
        <translation>每个进程的峰值内存：该段最后记录的一步中占用最大的进程的峰值</translation>
    </message>
    <message>
        <source>Smoothing</source>
        <translation>平滑</translation>
    </message>
    <message>
        <source>Exponential moving average of each run&apos;s line, as on the Run view&apos;s loss chart; 0 shows the raw values.</source>
        <translation>每个运行曲线的指数滑动平均，与运行视图的损失图相同；0 表示显示原始值。</translation>
    </message>
    <message>
        <source>%1, EMA %2</source>
        <translation>%1，EMA %2</translation>
    </message>
</context>
<context>
    <name>zerolab::ConfigForm</name>
    <message>
        <source>Stage 0, plain data parallelism: every rank keeps the full params, grads and optimizer states, and gradients are all-reduced.</source>
        <translation>阶段 0，朴素数据并行：每个进程保存完整的参数、梯度和优化器状态，梯度做全规约 (all-reduce)。</translation>
    </message>
    <message>
        <source>Stage 1 shards the optimizer states (Adam m, v and the fp32 master) across ranks; each rank updates its slice and the slices are all-gathered.</source>
        <translation>阶段 1 把优化器状态（Adam m、v 和 fp32 主参数）分片到各进程；每个进程更新自己的一片，然后全收集 (all-gather) 各分片。</translation>
    </message>
    <message>
        <source>Stage 2 also shards the gradients: buckets are reduce-scattered during backward, so a rank keeps only the gradient slice it updates.</source>
        <translation>阶段 2 还对梯度分片：反向过程中按桶做归约-散射 (reduce-scatter)，每个进程只保留自己更新的那一片梯度。</translation>
    </message>
    <message>
        <source>Stage 3 also shards the parameters: each layer is all-gathered before its forward and backward and freed after; 1.5x the traffic of stage 0.</source>
        <translation>阶段 3 还对参数分片：每层在前向和反向之前全收集，用完即释放；通信量是阶段 0 的 1.5 倍。</translation>
    </message>
    <message>
        <source>ZeRO</source>
        <translation>ZeRO</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>Overlap comm with backward</source>
        <translation>通信与反向重叠</translation>
    </message>
    <message>
        <source>overlap_comm: start each bucket&apos;s collective as soon as backward has filled it, hiding communication behind compute at the cost of bucket buffers.</source>
        <translation>overlap_comm：反向一填满某个桶就启动它的集合通信，以桶缓冲区为代价把通信隐藏在计算之后。</translation>
    </message>
    <message>
        <source>All-gather partitions</source>
        <translation>全收集 (all-gather) 分区</translation>
    </message>
    <message>
        <source>allgather_partitions: after the update, all-gather the parameter shards in one collective (on), or broadcast each owner&apos;s shard in turn (off).</source>
        <translation>allgather_partitions：更新之后，用一次集合通信全收集参数分片（开），或由各所属进程依次广播自己的分片（关）。</translation>
    </message>
    <message>
        <source>Reduce-scatter gradients</source>
        <translation>梯度归约-散射 (reduce-scatter)</translation>
    </message>
    <message>
        <source>reduce_scatter: reduce gradients so that each rank receives only the shard it updates (on), instead of a full all-reduce (off).</source>
        <translation>reduce_scatter：规约梯度时每个进程只接收自己更新的分片（开），而不是做完整的全规约（关）。</translation>
    </message>
    <message>
        <source>Contiguous gradients</source>
        <translation>连续梯度</translation>
    </message>
    <message>
        <source>contiguous_gradients: copy gradients into one contiguous buffer as they are produced, avoiding fragmentation.</source>
        <translation>contiguous_gradients：梯度一产生就复制到一块连续缓冲区中，避免碎片。</translation>
    </message>
    <message>
        <source>reduce_bucket_size, in elements: larger buckets mean fewer, more efficient collectives but bigger comm buffers.</source>
        <translation>reduce_bucket_size，单位为元素：桶越大，集合通信次数越少、效率越高，但通信缓冲区越大。</translation>
    </message>
    <message>
        <source>allgather_bucket_size, in elements: how much is gathered per all-gather call; trades buffer memory for fewer calls.</source>
        <translation>allgather_bucket_size，单位为元素：每次全收集调用收集多少；以缓冲区内存换取更少的调用。</translation>
    </message>
    <message>
        <source>Reduce bucket</source>
        <translation>规约桶</translation>
    </message>
    <message>
        <source>All-gather bucket</source>
        <translation>全收集桶</translation>
    </message>
    <message>
        <source>Batch and precision</source>
        <translation>批次与精度</translation>
    </message>
    <message>
        <source>Data-parallel ranks (mpirun -np N). Sharded states are divided by N; the global batch grows with it.</source>
        <translation>数据并行进程数（mpirun -np N）。分片的状态除以 N；全局批次随之增大。</translation>
    </message>
    <message>
        <source>train_micro_batch_size_per_gpu: samples per rank per micro-step; activation memory grows linearly with it.</source>
        <translation>train_micro_batch_size_per_gpu：每个进程每个微步的样本数；激活值内存随之线性增长。</translation>
    </message>
    <message>
        <source>gradient_accumulation_steps: micro-steps per optimizer step. A smaller micro-batch reaches the same global batch, shrinking activations; it does not shrink gradient memory.</source>
        <translation>gradient_accumulation_steps：每个优化器步的微步数。较小的微批次也能达到相同的全局批次，从而缩小激活值；它不会缩小梯度内存。</translation>
    </message>
    <message>
        <source>bf16: bf16 params and grads with an fp32 master copy and fp32 Adam states (16 bytes per parameter); fp32: no master copy.</source>
        <translation>bf16：bf16 参数和梯度，外加 fp32 主参数和 fp32 Adam 状态（每个参数 16 字节）；fp32：没有主参数副本。</translation>
    </message>
    <message>
        <source>Ranks N</source>
        <translation>进程数 N</translation>
    </message>
    <message>
        <source>Micro-batch</source>
        <translation>微批次</translation>
    </message>
    <message>
        <source>Accumulation</source>
        <translation>梯度累积</translation>
    </message>
    <message>
        <source>Global batch</source>
        <translation>全局批次</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>Optimizer and schedule</source>
        <translation>优化器与学习率计划</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <source>gradient_clipping: global L2 norm; under sharding each rank squares its own shard and one float is all-reduced.</source>
        <translation>gradient_clipping：全局 L2 范数；分片时每个进程对自己的分片求平方和，再全规约一个浮点数。</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>Weight decay</source>
        <translation>权重衰减</translation>
    </message>
    <message>
        <source>Grad clipping</source>
        <translation>梯度裁剪</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>学习率计划</translation>
    </message>
    <message>
        <source>Warmup steps</source>
        <translation>预热步数</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Preset</source>
        <translation>预设</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>Context, vocab</source>
        <translation>上下文，词表</translation>
    </message>
    <message>
        <source>Parameters ψ</source>
        <translation>参数 ψ</translation>
    </message>
    <message>
        <source>model.recompute: which activations each layer keeps for backward.
none: all of them (64sbh + 4as²b bytes per layer in fp32).
selective: drop the attention probabilities and the layernorm and GELU outputs and recompute them in backward (40sbh per layer; a few percent more time).
full: keep only each block&apos;s input (4sbh per layer) and run the block&apos;s forward again in backward: about one more forward, 4/3 of the compute.</source>
        <translation>model.recompute：每层为反向保留哪些激活值。
none：全部保留（fp32 下每层 64sbh + 4as²b 字节）。
selective：丢弃注意力概率以及 layernorm 和 GELU 的输出，在反向中重计算（每层 40sbh；多花百分之几的时间）。
full：只保留每个块的输入（每层 4sbh），在反向中再跑一遍该块的前向：约多一次前向，计算量为 4/3。</translation>
    </message>
    <message>
        <source>Recompute</source>
        <translation>重计算</translation>
    </message>
    <message>
        <source>Data and device</source>
        <translation>数据与设备</translation>
    </message>
    <message>
        <source>synthetic: built-in seeded text, no download; text: any file, bytes as tokens; llmc: llm.c token shards.</source>
        <translation>synthetic：内置的带种子文本，无需下载；text：任意文件，字节即词元；llmc：llm.c 的词元分片文件。</translation>
    </message>
    <message>
        <source>file for text / llmc</source>
        <translation>text / llmc 用的文件</translation>
    </message>
    <message>
        <source>Choose a data file</source>
        <translation>选择数据文件</translation>
    </message>
    <message>
        <source>Data file</source>
        <translation>数据文件</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>数据</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>路径</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Launcher</source>
        <translation>启动器</translation>
    </message>
    <message>
        <source>local; or host1:4,host2:4</source>
        <translation>本机；或 host1:4,host2:4</translation>
    </message>
    <message>
        <source>used when hosts is empty</source>
        <translation>主机为空时使用</translation>
    </message>
    <message>
        <source>e.g. --bind-to core</source>
        <translation>例如 --bind-to core</translation>
    </message>
    <message>
        <source>mpirun</source>
        <translation>mpirun</translation>
    </message>
    <message>
        <source>Hosts</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>Hostfile</source>
        <translation>主机文件</translation>
    </message>
    <message>
        <source>Extra args</source>
        <translation>额外参数</translation>
    </message>
    <message>
        <source>%1 samples  (%2 × %3 × %4)</source>
        <translation>%1 个样本  (%2 × %3 × %4)</translation>
    </message>
    <message>
        <source>%1  (%2 parameters)</source>
        <translation>%1  (%2 个参数)</translation>
    </message>
    <message>
        <source>Family</source>
        <translation>模型族</translation>
    </message>
    <message>
        <source>Layers, heads</source>
        <translation>层数、头数</translation>
    </message>
    <message>
        <source>Vocab, head</source>
        <translation>词表、输出头</translation>
    </message>
    <message>
        <source>Sequence T</source>
        <translation>序列长度 T</translation>
    </message>
    <message>
        <source>Open a Hugging Face model config…</source>
        <translation>打开 Hugging Face 模型配置…</translation>
    </message>
    <message>
        <source>Reads a Hugging Face config.json (Llama, Mistral, Qwen2) into a Llama shape: writes model.hf_config and removes model.preset and the shape keys.</source>
        <translation>把 Hugging Face 的 config.json（Llama、Mistral、Qwen2）读成 Llama 形状：写入 model.hf_config，并删除 model.preset 和各形状键。</translation>
    </message>
    <message>
        <source>from the Hugging Face config, once it validates</source>
        <translation>来自 Hugging Face 配置，校验通过后显示</translation>
    </message>
    <message>
        <source>Llama, from the Hugging Face config %1</source>
        <translation>Llama，来自 Hugging Face 配置 %1</translation>
    </message>
    <message>
        <source>Hugging Face config %1: its shape shows once the config validates</source>
        <translation>Hugging Face 配置 %1：配置校验通过后显示其形状</translation>
    </message>
    <message>
        <source>Llama (Hugging Face LlamaForCausalLM: RMSNorm, RoPE, SwiGLU, grouped-query flash attention)</source>
        <translation>Llama（Hugging Face LlamaForCausalLM：RMSNorm、RoPE、SwiGLU、分组查询 FlashAttention）</translation>
    </message>
    <message>
        <source>GPT-2 (llm.c)</source>
        <translation>GPT-2（llm.c）</translation>
    </message>
    <message>
        <source>%1 layers · %2 heads · %3 KV heads · head dim %4 · FFN %5</source>
        <translation>%1 层 · %2 个头 · %3 个 KV 头 · 头维度 %4 · FFN %5</translation>
    </message>
    <message>
        <source>vocabulary %1 · %2 · %3</source>
        <translation>词表 %1 · %2 · %3</translation>
    </message>
    <message>
        <source>tied head</source>
        <translation>共享输出头</translation>
    </message>
    <message>
        <source>untied head (its own lm_head)</source>
        <translation>独立输出头（自己的 lm_head）</translation>
    </message>
    <message>
        <source>q/k/v bias</source>
        <translation>q/k/v 偏置</translation>
    </message>
    <message>
        <source>no q/k/v bias</source>
        <translation>无 q/k/v 偏置</translation>
    </message>
    <message>
        <source>model.seq_len: tokens per sequence in training, up to the model&apos;s context (%1)</source>
        <translation>model.seq_len：训练时每个序列的词元数，最多为模型的上下文长度（%1）</translation>
    </message>
    <message>
        <source>Open a Hugging Face model config</source>
        <translation>打开 Hugging Face 模型配置</translation>
    </message>
    <message>
        <source>Hugging Face config (config.json *.json);;All files (*)</source>
        <translation>Hugging Face 配置 (config.json *.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>A GPT-2 shape of your own: layers, heads, hidden size, context and vocabulary. For a Llama shape of your own, open its Hugging Face config.json, or write model.family &quot;llama&quot; and its keys in the JSON.</source>
        <translation>自定义 GPT-2 形状：层数、注意力头数、隐藏维度、上下文长度和词表。要自定义 Llama 形状，请打开它的 Hugging Face config.json，或在 JSON 中写 model.family &quot;llama&quot; 及其各键。</translation>
    </message>
</context>
<context>
    <name>zerolab::EventsModel</name>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Level</source>
        <translation>级别</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>进程</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>消息</translation>
    </message>
</context>
<context>
    <name>zerolab::ForecastPanel</name>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Host RAM ÷ N (this machine)</source>
        <translation>主机内存 ÷ N（本机）</translation>
    </message>
    <message>
        <source>Reserve</source>
        <translation>预留</translation>
    </message>
    <message>
        <source>Memory a rank holds outside the forecast: the CUDA context, cuBLAS workspace, NCCL&apos;s buffers and the allocator&apos;s fragmentation. Default on a GPU: 1 GiB + 5% of its memory (docs/planner.md); 0 for host RAM. GB = 1e9 bytes.</source>
        <translation>进程在预测之外占用的内存：CUDA 上下文、cuBLAS 工作区、NCCL 缓冲区和分配器碎片。GPU 上默认为 1 GiB + 显存的 5%（docs/planner.md）；主机内存为 0。GB = 1e9 字节。</translation>
    </message>
    <message>
        <source>Cannot plan: %1</source>
        <translation>无法规划：%1</translation>
    </message>
    <message>
        <source>Stage %1</source>
        <translation>阶段 %1</translation>
    </message>
    <message>
        <source>host RAM ÷ %1</source>
        <translation>主机内存 ÷ %1</translation>
    </message>
    <message>
        <source>%1 usable: %2</source>
        <translation>%1 可用：%2</translation>
    </message>
    <message>
        <source>the %1 usable on %2 (%3 less %4 reserved for the CUDA context, NCCL and fragmentation; GB = 10⁹ bytes)</source>
        <translation>%2 上可用的 %1（%3 减去为 CUDA 上下文、NCCL 和碎片预留的 %4；GB = 10⁹ 字节）</translation>
    </message>
    <message>
        <source>the %1 of %2 (nothing reserved; GB = 10⁹ bytes)</source>
        <translation>%2 的 %1（不预留；GB = 10⁹ 字节）</translation>
    </message>
    <message>
        <source>Stage %1 fits: %2 per rank, %3 to spare of %4.</source>
        <translation>阶段 %1 放得下：每进程 %2，%4 中还剩 %3。</translation>
    </message>
    <message>
        <source>Stage %1 does not fit: %2 per rank, %3 over %4.</source>
        <translation>阶段 %1 放不下：每进程 %2，超出 %4 共 %3。</translation>
    </message>
    <message>
        <source> Stage %1 fits at N = %2.</source>
        <translation> 阶段 %1 在 N = %2 时放得下。</translation>
    </message>
    <message>
        <source> Stage 3 fits from N = %1.</source>
        <translation> 阶段 3 从 N = %1 起放得下。</translation>
    </message>
    <message>
        <source>not estimated</source>
        <translation>未估算</translation>
    </message>
    <message>
        <source>host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>The config is invalid: no forecast until it is fixed.</source>
        <translation>配置无效：修正之前没有预测。</translation>
    </message>
    <message>
        <source>The config is invalid: this is not its forecast. Greyed: the last valid config&apos;s (%1)</source>
        <translation>配置无效：这不是它的预测。灰色显示的是最后一个有效配置的预测（%1）</translation>
    </message>
    <message>
        <source> · offloaded per rank: host memory %1, NVMe %2 (per node %3) · PCIe per step %4 (%5 at %6 GB/s); forecast, zerolab does not offload</source>
        <translation> · 每个进程卸载：主机内存 %1，NVMe %2（每节点 %3）· 每步 PCIe 流量 %4（%6 GB/s 下 %5）；仅为预测，zerolab 并不卸载</translation>
    </message>
    <message>
        <source>ψ = %1 parameters · model states %2 · activations %3 · traffic per rank per step %4 = %5 B/ψ (%6 at %7 GB/s)</source>
        <translation>ψ = %1 个参数 · 模型状态 %2 · 激活值 %3 · 每进程每步通信量 %4 = %5 B/ψ（%7 GB/s 下 %6）</translation>
    </message>
</context>
<context>
    <name>zerolab::LabMemoryChart</name>
    <message>
        <source>Model states per rank</source>
        <translation>每进程模型状态</translation>
    </message>
    <message>
        <source>Model states: what ZeRO shards (params, master, grads, Adam m and v)</source>
        <translation>模型状态：ZeRO 分片的部分（参数、主参数、梯度、Adam m 和 v）</translation>
    </message>
    <message>
        <source>%1: every ledger category</source>
        <translation>%1：全部账本类别</translation>
    </message>
    <message>
        <source>Apart: not model states (ZeRO does not shard them)</source>
        <translation>另列：非模型状态（ZeRO 不对其分片）</translation>
    </message>
    <message>
        <source>Filled: measured (the ledger of rank 0). Dashed outline: the planner&apos;s forecast.</source>
        <translation>实心：实测（进程 0 的账本）。虚线框：规划器的预测。</translation>
    </message>
    <message>
        <source>Values in bytes per parameter (B/ψ), per rank.</source>
        <translation>数值为每进程每参数字节数（B/ψ）。</translation>
    </message>
    <message>
        <source>Values in bytes (1 MB = 10⁶ B), per rank.</source>
        <translation>数值为每进程字节数（1 MB = 10⁶ B）。</translation>
    </message>
    <message>
        <source>Model states only</source>
        <translation>仅模型状态</translation>
    </message>
    <message>
        <source>The bars hold params, master, grads and Adam m and v, what ZeRO shards; activations, comm buffers and the CPU engine&apos;s workspace stand apart beside them, on the same scale.</source>
        <translation>柱条只含 ZeRO 分片的参数、主参数、梯度和 Adam m、v；激活值、通信缓冲区和 CPU 引擎工作区在旁边另列，刻度相同。</translation>
    </message>
    <message>
        <source>Memory per rank</source>
        <translation>每进程内存</translation>
    </message>
    <message>
        <source>Not model states</source>
        <translation>非模型状态</translation>
    </message>
</context>
<context>
    <name>zerolab::LabStepTimeChart</name>
    <message>
        <source>activations, measured</source>
        <translation>激活值（实测）</translation>
    </message>
    <message>
        <source>activations, planner</source>
        <translation>激活值（规划器）</translation>
    </message>
    <message>
        <source>median step time</source>
        <translation>步时间中位数</translation>
    </message>
    <message>
        <source>Activations per rank (MiB)</source>
        <translation>每进程激活值 (MiB)</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>毫秒</translation>
    </message>
    <message>
        <source>⚠ A run logged a single step: there is no spread to tell a difference from noise.</source>
        <translation>⚠ 有运行只记录了一步：没有离散范围可用来区分差异与噪声。</translation>
    </message>
    <message>
        <source>⚠ Inside the noise: every difference between these step times is smaller than the spread of a run&apos;s own steps (up to %1 ms). The chart does not show that one is faster; timing depends on the machine and its load.</source>
        <translation>⚠ 在噪声之内：这些步时间之间的每个差异都小于单个运行自身各步的离散范围（最多 %1 毫秒）。此图并不表明哪个更快；计时取决于机器及其负载。</translation>
    </message>
    <message>
        <source>%1 ≈ %2 (%3 ms apart, their steps spread up to %4 ms)</source>
        <translation>%1 ≈ %2（相差 %3 毫秒，其各步离散最多 %4 毫秒）</translation>
    </message>
    <message>
        <source>⚠ Inside the noise: %1. A difference smaller than the spread of a run&apos;s own steps does not show that one is faster.</source>
        <translation>⚠ 在噪声之内：%1。小于运行自身各步离散范围的差异并不表明哪个更快。</translation>
    </message>
    <message>
        <source>The differences exceed the spread of each run&apos;s own steps. </source>
        <translation>这些差异超出了每个运行自身各步的离散范围。</translation>
    </message>
    <message>
        <source>Step time per run (ms)</source>
        <translation>每个运行的步时间（毫秒）</translation>
    </message>
    <message>
        <source>across the link, measured</source>
        <translation>跨链路，实测</translation>
    </message>
    <message>
        <source>across the link, planner</source>
        <translation>跨链路，规划器</translation>
    </message>
    <message>
        <source>forecast (step-time model)</source>
        <translation>预测（单步时间模型）</translation>
    </message>
    <message>
        <source>fastest to slowest</source>
        <translation>最快到最慢</translation>
    </message>
    <message>
        <source>Across the link per step (B/ψ)</source>
        <translation>每步跨链路字节数（B/ψ）</translation>
    </message>
    <message>
        <source>Bars: the median over each run&apos;s logged steps (n = %1), whiskers its fastest to its slowest step, beside the step-time model&apos;s forecast. The checks above hold each forecast to its median within their tolerance.</source>
        <translation>柱条：每个运行所记录各步的中位数（n = %1），须线为其最快到最慢的步，旁边是单步时间模型的预测。上方的检查要求每个预测与其中位数之差在容差以内。</translation>
    </message>
    <message>
        <source>Bars: the median over each run&apos;s logged steps (n = %1); whiskers: its fastest to its slowest step. Time is charted, not checked in this step.</source>
        <translation>柱条：每个运行所记录各步的中位数（n = %1）；须线：其最快到最慢的步。本步只把时间作图，不检查。</translation>
    </message>
</context>
<context>
    <name>zerolab::LabView</name>
    <message>
        <source>Open a lesson</source>
        <translation>打开课程</translation>
    </message>
    <message>
        <source>Lesson files (*.json);;All files (*)</source>
        <translation>课程文件 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot open the lesson</source>
        <translation>无法打开课程</translation>
    </message>
    <message>
        <source>Open lesson file…</source>
        <translation>打开课程文件…</translation>
    </message>
    <message>
        <source>A lesson of your own: a JSON file in the format docs/lab.md describes</source>
        <translation>自己编写的课程：按 docs/lab.md 所述格式的 JSON 文件</translation>
    </message>
    <message>
        <source>1 · Predict</source>
        <translation>1 · 预测</translation>
    </message>
    <message>
        <source>3 · Check: your answer, the formula, the planner, the run</source>
        <translation>3 · 核对：你的答案、公式、规划器与实际运行</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>← Previous step</source>
        <translation>← 上一步</translation>
    </message>
    <message>
        <source>Next step →</source>
        <translation>下一步 →</translation>
    </message>
    <message>
        <source>Student:</source>
        <translation>学生：</translation>
    </message>
    <message>
        <source>your name, for the report</source>
        <translation>你的姓名（写入报告）</translation>
    </message>
    <message>
        <source>Open runs in Compare</source>
        <translation>在“对比”中打开这些运行</translation>
    </message>
    <message>
        <source>Export lab report (PDF)…</source>
        <translation>导出实验报告 (PDF)…</translation>
    </message>
    <message>
        <source>An experiment is running: stop it before opening another lesson.</source>
        <translation>实验正在运行：请先停止，再打开其他课程。</translation>
    </message>
    <message>
        <source>The Lab</source>
        <translation>实验室</translation>
    </message>
    <message>
        <source>Choose a lesson: predict a number, run the real experiment, and check your answer against the formula and the run.</source>
        <translation>选择一门课程：先预测一个数，再运行真实实验，把你的答案与公式和实际运行结果对照。</translation>
    </message>
    <message>
        <source>Open a store first (File → Open store): the runs are kept there.</source>
        <translation>请先打开运行库（文件 → 打开运行库）：运行结果保存在那里。</translation>
    </message>
    <message numerus="yes">
        <source>Starting %n run(s)…</source>
        <translation>
            <numerusform>正在启动 %n 个运行…</numerusform>
        </translation>
    </message>
    <message>
        <source>Asking the planner…</source>
        <translation>正在询问规划器…</translation>
    </message>
    <message>
        <source>Run %1 of %2: %3 · step %4 of %5</source>
        <translation>第 %1/%2 个运行：%3 · 第 %4/%5 步</translation>
    </message>
    <message>
        <source>The experiment failed: %1</source>
        <translation>实验失败：%1</translation>
    </message>
    <message>
        <source>Stopped: the runs that finished are in the store.</source>
        <translation>已停止：已完成的运行保存在运行库中。</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
    <message>
        <source>Step %1 of %2 · %3</source>
        <translation>第 %1/%2 步 · %3</translation>
    </message>
    <message>
        <source>a number, or e.g. 4 + 12/4</source>
        <translation>一个数，或如 4 + 12/4</translation>
    </message>
    <message>
        <source>2 · Run the experiment</source>
        <translation>2 · 运行实验</translation>
    </message>
    <message>
        <source>2 · Ask the planner</source>
        <translation>2 · 询问规划器</translation>
    </message>
    <message numerus="yes">
        <source>%n real run(s) under mpirun, kept in the store and tagged lab:%1</source>
        <translation>
            <numerusform>在 mpirun 下进行 %n 个真实运行，保存在运行库中并标记为 lab:%1</numerusform>
        </translation>
    </message>
    <message>
        <source>The planner&apos;s numbers and the chapter&apos;s sums; no run</source>
        <translation>规划器的数值与章节的算式；不运行</translation>
    </message>
    <message>
        <source>Showing the newest stored runs of this step; run again to repeat it.</source>
        <translation>显示本步骤最近保存的运行；再次运行可重做实验。</translation>
    </message>
    <message>
        <source>Type your predictions, then run the experiment: the checks appear here.</source>
        <translation>先填写你的预测，再运行实验：核对结果将显示在这里。</translation>
    </message>
    <message>
        <source>4 · The chart</source>
        <translation>4 · 图表</translation>
    </message>
    <message>
        <source>The chart appears once the experiment has run.</source>
        <translation>实验运行后将显示图表。</translation>
    </message>
    <message>
        <source>Export lab report</source>
        <translation>导出实验报告</translation>
    </message>
    <message>
        <source>PDF (*.pdf)</source>
        <translation>PDF (*.pdf)</translation>
    </message>
    <message>
        <source>Cannot export the lab report</source>
        <translation>无法导出实验报告</translation>
    </message>
    <message>
        <source>Lab report written to %1</source>
        <translation>实验报告已写入 %1</translation>
    </message>
    <message>
        <source>Graded against the formula (within 2 %); the run is shown beside it</source>
        <translation>按公式评分（误差 2 % 以内）；旁边同时显示实测值</translation>
    </message>
    <message>
        <source>Graded against the run (within 2 %); the formula is shown beside it</source>
        <translation>按实测值评分（误差 2 % 以内）；旁边同时显示公式值</translation>
    </message>
    <message>
        <source>Choose a lesson first</source>
        <translation>请先选择一课</translation>
    </message>
    <message>
        <source>Hide each step&apos;s formula until it has run</source>
        <translation>在步骤运行之前隐藏其公式</translation>
    </message>
    <message>
        <source>For a class: the students predict before they see the formula; it shows once the step&apos;s experiment has run.</source>
        <translation>课堂用：学生先预测，再看公式；步骤的实验运行后公式才显示。</translation>
    </message>
    <message>
        <source>1 · Run: this step asks for no prediction; run it and read the checks</source>
        <translation>1 · 运行：本步骤无需预测；运行后查看核对结果</translation>
    </message>
    <message>
        <source>Formula hidden until the step has run</source>
        <translation>公式已隐藏，步骤运行后显示</translation>
    </message>
    <message>
        <source>Type your predictions, then ask the planner: the checks appear here.</source>
        <translation>先输入你的预测，再询问规划器：检查结果会显示在这里。</translation>
    </message>
</context>
<context>
    <name>zerolab::LearnView</name>
    <message>
        <source>10B parameters: the optimizer states</source>
        <translation>100 亿参数：优化器状态</translation>
    </message>
    <message>
        <source>The chapter: Adam&apos;s m and v take 8ψ bytes, 80 GB at ψ = 10B, already a whole A100 80 GB. That figure is right. What it leaves out is the fp32 master copy, which DeepSpeed shards together with m and v: the states stage 1 shards are 12ψ = 120 GB, not 8ψ.</source>
        <translation>章节原文：Adam 的 m 和 v 占 8ψ 字节，ψ = 10B 时为 80 GB，已经是整张 A100 80 GB。这个数字是对的。它漏掉的是 fp32 主参数副本，DeepSpeed 把它和 m、v 一起分片：阶段 1 分片的状态是 12ψ = 120 GB，而不是 8ψ。</translation>
    </message>
    <message>
        <source>6.7B on 8 × A100 80 GB, stage 1</source>
        <translation>6.7B 在 8 × A100 80 GB 上，阶段 1</translation>
    </message>
    <message>
        <source>The chapter counts fp32 gradients and a replicated master: 13.4 + 26.8 + 26.8 + 53.6/8 + 10 GB activations = 83.7 GB, then claims that gradient accumulation halves gradient memory (70.3 GB). Accumulation does not shrink gradients; it lets a smaller micro-batch reach the same global batch, which shrinks activations. In DeepSpeed&apos;s layout (bf16 grads, master sharded) stage 1 needs 4ψ + 12ψ/8 = 36.9 GB plus activations: it fits without the trick.</source>
        <translation>章节按 fp32 梯度和复制的主参数计算：13.4 + 26.8 + 26.8 + 53.6/8 + 10 GB 激活值 = 83.7 GB，随后声称梯度累积能让梯度内存减半（70.3 GB）。梯度累积并不缩小梯度；它让较小的微批次达到相同的全局批次，缩小的是激活值。按 DeepSpeed 的布局（bf16 梯度，主参数分片），阶段 1 需要 4ψ + 12ψ/8 = 36.9 GB 加激活值：不用这个技巧也放得下。</translation>
    </message>
    <message>
        <source>175B on 64 GPUs, stage 1</source>
        <translation>175B 在 64 块 GPU 上，阶段 1</translation>
    </message>
    <message>
        <source>The chapter&apos;s table shards only m and v yet totals 14ψ + 4ψ/N: 2460.9 GB. Its own rows add up to 10ψ + 8ψ/N = 1771.9 GB, and the saving tends to 44%, not 22%. With the master sharded too (ZeRO paper, K = 12) stage 1 is 4ψ + 12ψ/N = 732.8 GB per GPU: still far beyond one device, which is why stages 2 and 3 exist.</source>
        <translation>章节的表格只分片 m 和 v，合计却写成 14ψ + 4ψ/N：2460.9 GB。它自己各行相加是 10ψ + 8ψ/N = 1771.9 GB，节省比例趋于 44%，而不是 22%。若主参数也一起分片（ZeRO 论文，K = 12），阶段 1 为每块 GPU 4ψ + 12ψ/N = 732.8 GB：仍远超单个设备，这正是阶段 2 和 3 存在的原因。</translation>
    </message>
    <message>
        <source>Per-GPU memory by ZeRO stage</source>
        <translation>各 ZeRO 阶段的每 GPU 内存</translation>
    </message>
    <message>
        <source>How it adds up</source>
        <translation>如何累加</translation>
    </message>
    <message>
        <source>Topic</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>The chapter says</source>
        <translation>章节原文</translation>
    </message>
    <message>
        <source>Correct</source>
        <translation>正确值</translation>
    </message>
    <message>
        <source>Chapter errata</source>
        <translation>章节勘误</translation>
    </message>
    <message>
        <source>Model and cluster</source>
        <translation>模型与集群</translation>
    </message>
    <message>
        <source> B params</source>
        <translation> B 参数</translation>
    </message>
    <message>
        <source>ψ = %1 × 10⁹ parameters</source>
        <translation>ψ = %1 × 10⁹ 个参数</translation>
    </message>
    <message>
        <source>bf16 mixed (fp32 master, K = 12)</source>
        <translation>bf16 混合精度（fp32 主参数，K = 12）</translation>
    </message>
    <message>
        <source>fp32 (no master, K = 8)</source>
        <translation>fp32（无主参数，K = 8）</translation>
    </message>
    <message>
        <source>ZeRO paper / DeepSpeed</source>
        <translation>ZeRO 论文 / DeepSpeed</translation>
    </message>
    <message>
        <source>The chapter&apos;s layout</source>
        <translation>章节的布局</translation>
    </message>
    <message>
        <source>The chapter keeps fp32 gradients and a replicated fp32 master; DeepSpeed shards the master with m and v.</source>
        <translation>章节保留 fp32 梯度和复制的 fp32 主参数；DeepSpeed 把主参数与 m、v 一起分片。</translation>
    </message>
    <message>
        <source>Not counted</source>
        <translation>不计入</translation>
    </message>
    <message>
        <source>Given per GPU</source>
        <translation>按每 GPU 给定</translation>
    </message>
    <message>
        <source>Korthikanti et al., recompute %1</source>
        <translation>Korthikanti 等人，重计算 %1</translation>
    </message>
    <message>
        <source> GB</source>
        <translation> GB</translation>
    </message>
    <message>
        <source>Activation memory per GPU given directly, e.g. the chapter&apos;s 10 GB with checkpointing.</source>
        <translation>直接给定每 GPU 的激活值内存，例如章节中使用激活检查点时的 10 GB。</translation>
    </message>
    <message>
        <source>b = </source>
        <translation>b = </translation>
    </message>
    <message>
        <source>Micro-batch per GPU (sequences) for the formula.</source>
        <translation>公式使用的每 GPU 微批次（序列数）。</translation>
    </message>
    <message>
        <source>Logarithmic memory axis</source>
        <translation>对数内存轴</translation>
    </message>
    <message>
        <source>Bars that differ by orders of magnitude (stage 0 and stage 3 at 175B on 64 GPUs) all stay visible; segment heights within a bar are then not to scale.</source>
        <translation>相差几个数量级的条形（175B 在 64 块 GPU 上的阶段 0 与阶段 3）都保持可见；此时条形内各段的高度不按比例。</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>GPUs N</source>
        <translation>GPU 数 N</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>Convention</source>
        <translation>约定</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>激活值</translation>
    </message>
    <message>
        <source>The chapter&apos;s scenarios</source>
        <translation>章节中的场景</translation>
    </message>
    <message>
        <source>Pick a scenario to load it in the chapter&apos;s convention; the errata tab then shows each slip next to the correct sum.</source>
        <translation>选择一个场景，按章节的约定载入；勘误页会把每处错误与正确的算式并排列出。</translation>
    </message>
    <message>
        <source>Per GPU, as given.</source>
        <translation>每 GPU，按给定值。</translation>
    </message>
    <message>
        <source>Activations left out of the bars.</source>
        <translation>条形中不含激活值。</translation>
    </message>
    <message>
        <source>The formula needs a model&apos;s shape: pick 1.5B, 6.7B, 13B or 175B. Not counted.</source>
        <translation>公式需要模型的形状：请选择 1.5B、6.7B、13B 或 175B。不计入。</translation>
    </message>
    <message>
        <source>L × %1 with L = %2, s = %3, b = %4, h = %5, a = %6 = %7 (Korthikanti et al. 2022, %8, recompute %9, 16-bit activations)</source>
        <translation>L × %1，其中 L = %2，s = %3，b = %4，h = %5，a = %6，合计 %7（Korthikanti 等人 2022，%8，重计算 %9，16 位激活值）</translation>
    </message>
    <message>
        <source>ZeRO-Offload: 13B on one GPU</source>
        <translation>ZeRO-Offload：一块 GPU 上的 13B</translation>
    </message>
    <message>
        <source>the parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>the gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>the optimizer states</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>The chapter&apos;s layout → ZeRO&apos;s: −%1 of the −%2 drop</source>
        <translation>章节的布局 → ZeRO 的布局：总降幅 −%2 中的 −%1</translation>
    </message>
    <message>
        <source>then stage %1 shards %2: −%3</source>
        <translation>随后阶段 %1 切分%2：−%3</translation>
    </message>
    <message>
        <source>stage %1 in ZeRO&apos;s layout: %2</source>
        <translation>ZeRO 布局下的阶段 %1：%2</translation>
    </message>
    <message>
        <source>ZeRO-Offload trains 13B parameters on one 32 GB V100. With offload_optimizer on the CPU, stage 2 at N = 1 keeps only the 16-bit parameters (2ψ = 26 GB) and a reduce bucket on the GPU; the fp32 master, m, v and the gradients (14ψ = 182 GB) live in host memory. Without offload the same stage needs 16ψ = 208 GB. The price is PCIe: every step the gradients go down and the parameters come back, 4ψ = 52 GB, about 2 s at 25 GB/s. Shown on a V100 32 GB, as in the paper and DeepSpeed&apos;s tutorial; zerolab forecasts offload, it does not run it.</source>
        <translation>ZeRO-Offload 在一块 32 GB 的 V100 上训练 13B 参数。offload_optimizer 放在 CPU 上时，N = 1 的阶段 2 在 GPU 上只保留 16 位参数（2ψ = 26 GB）和一个归约桶；fp32 主参数、m、v 和梯度（14ψ = 182 GB）放在主机内存中。不卸载时同一阶段需要 16ψ = 208 GB。代价是 PCIe：每一步梯度下行、参数回传，4ψ = 52 GB，在 25 GB/s 下约 2 秒。这里与论文和 DeepSpeed 教程一样显示在 V100 32 GB 上；zerolab 只预测卸载，并不执行。</translation>
    </message>
    <message>
        <source>Step time vs bandwidth</source>
        <translation>步时间与带宽</translation>
    </message>
    <message>
        <source>ZeRO++ across hosts</source>
        <translation>ZeRO++ 跨主机</translation>
    </message>
    <message>
        <source>The chapter&apos;s layout → ZeRO&apos;s: −%1, the whole drop</source>
        <translation>章节的布局 → ZeRO 的布局：−%1，即全部降幅</translation>
    </message>
    <message>
        <source>then stage %1 shards %2: nothing more at N = %3</source>
        <translation>随后阶段 %1 切分%2：N = %3 时不再减少</translation>
    </message>
    <message>
        <source>Llama 3.1 8B on 8 × A100</source>
        <translation>Llama 3.1 8B，8 × A100</translation>
    </message>
    <message>
        <source>Llama 3.1 8B (ψ = 8.03B: 32 layers, 8 KV heads of 32, FFN 14336, a 128k vocabulary, untied head) at 4096 tokens. The model states are small at N = 8: 4ψ + 12ψ/8 = 44 GB at stage 1, 2ψ + 14ψ/8 = 30 GB at stage 2. The activations decide. Without recompute one sequence keeps about 42 GB: stage 1 does not fit even at b = 1, stage 2 barely does. Selective recompute (about 30 GB) still leaves stage 1 short. Full recompute keeps only each block&apos;s input, about 8 GB a sequence: stage 1 fits up to b = 3, stage 2 up to b = 5. The forecast assumes flash attention (the Llama family runs flash attention only, so there is no s² term) and fp32 activations, as zerolab&apos;s CPU engine keeps them: a bf16 GPU run would keep about half.</source>
        <translation>Llama 3.1 8B（ψ = 8.03B：32 层，32 个头中 8 个 KV 头，FFN 14336，128k 词表，独立输出头），4096 个词元。N = 8 时模型状态不大：阶段 1 为 4ψ + 12ψ/8 = 44 GB，阶段 2 为 2ψ + 14ψ/8 = 30 GB。决定结果的是激活值。不重计算时一个序列约保留 42 GB：即使 b = 1，阶段 1 也放不下，阶段 2 勉强放下。选择性重计算（约 30 GB）仍让阶段 1 不够。完全重计算只保留每个块的输入，每个序列约 8 GB：阶段 1 最多 b = 3，阶段 2 最多 b = 5。预测假定使用 FlashAttention（Llama 族只运行 FlashAttention，所以没有 s² 项）和 fp32 激活值，这是 zerolab 的 CPU 引擎的做法：bf16 的 GPU 运行约保留一半。</translation>
    </message>
    <message>
        <source>Llama 3.1 70B on 64 × A100</source>
        <translation>Llama 3.1 70B，64 × A100</translation>
    </message>
    <message>
        <source>Llama 3.1 70B (ψ = 70.6B, 80 layers, C = 8192) needs stage 3: stage 2 keeps the 16-bit parameters whole, 2ψ = 141 GB. At stage 3 on 64 GPUs the sharded states are 16ψ/64 = 17.6 GB; with full recompute one 4096-token sequence adds about 19 GB, so b = 2 fits and b = 3 does not. Selective recompute keeps about 127 GB a sequence: it does not fit at any N, because activations are not sharded by ZeRO. Flash attention (the Llama family&apos;s only kernel) and fp32 activations (zerolab&apos;s CPU engine) are assumed.</source>
        <translation>Llama 3.1 70B（ψ = 70.6B，80 层，C = 8192）需要阶段 3：阶段 2 保留完整的 16 位参数，2ψ = 141 GB。在 64 张 GPU 的阶段 3，分片后的状态为 16ψ/64 = 17.6 GB；完全重计算时一个 4096 词元的序列再加约 19 GB，所以 b = 2 放得下，b = 3 放不下。选择性重计算每个序列约保留 127 GB：任何 N 都放不下，因为 ZeRO 不对激活值分片。假定使用 FlashAttention（Llama 族唯一的内核）和 fp32 激活值（zerolab 的 CPU 引擎）。</translation>
    </message>
    <message>
        <source>Llama 3.1 405B on 512 × H200</source>
        <translation>Llama 3.1 405B，512 × H200</translation>
    </message>
    <message>
        <source>Llama 3.1 405B (ψ = 406B, 126 layers, C = 16384): 16ψ = 6.5 TB of model states, 12.7 GB per GPU at stage 3 on 512 GPUs. What does not shrink with N decides: one 4096-token sequence with full recompute keeps about 45 GB, and stage 3 gathers whole layers (each 3.2B parameters) into buffers of its own. On H100 80 GB it does not fit at any N; on H200 141 GB it fits at b = 1. Meta trained it with tensor and pipeline parallelism beside data parallelism, which split the activations and the layers too. Flash attention (the Llama family&apos;s only kernel) and fp32 activations (zerolab&apos;s CPU engine) are assumed.</source>
        <translation>Llama 3.1 405B（ψ = 406B，126 层，C = 16384）：模型状态 16ψ = 6.5 TB，在 512 张 GPU 的阶段 3 每张 12.7 GB。决定结果的是不随 N 缩小的部分：完全重计算时一个 4096 词元的序列约保留 45 GB，而阶段 3 要把整层（每层 32 亿参数）收集到自己的缓冲区里。在 H100 80 GB 上任何 N 都放不下；在 H200 141 GB 上 b = 1 放得下。Meta 训练它时在数据并行之外还用了张量并行和流水线并行，把激活值和各层也切分开。假定使用 FlashAttention（Llama 族唯一的内核）和 fp32 激活值（zerolab 的 CPU 引擎）。</translation>
    </message>
    <message>
        <source>zerolab&apos;s arena, recompute %1</source>
        <translation>zerolab 的激活值区，重计算 %1</translation>
    </message>
    <message>
        <source>ψ only (no shape)</source>
        <translation>只有 ψ（无形状）</translation>
    </message>
    <message>
        <source>A Llama-family preset: ψ from its tensors, and the exact activation arena zerolab allocates for it (activationFootprint).</source>
        <translation>Llama 族预设：ψ 由其张量计算，激活值为 zerolab 为它分配的精确激活值区（activationFootprint）。</translation>
    </message>
    <message>
        <source>s = </source>
        <translation>s = </translation>
    </message>
    <message>
        <source>Sequence length (tokens) for the exact arena, up to the model&apos;s context.</source>
        <translation>精确激活值区的序列长度（词元），最多为模型的上下文长度。</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Sequence</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>Activations per GPU. Korthikanti et al. 2022 (arXiv:2205.05198), 16-bit activations, per layer: sbh(34 + 5as/h) without recompute, 34sbh with selective recompute of the attention core, 2sbh with full recompute; needs the shape of a preset model. zerolab&apos;s arena: what zerolab allocates for the chosen model (fp32, flash attention for the Llama family), at micro-batch b and sequence length s.</source>
        <translation>每张 GPU 的激活值。Korthikanti 等 2022（arXiv:2205.05198），16 位激活值，每层：不重计算时 sbh(34 + 5as/h)，对注意力核心做选择性重计算时 34sbh，完全重计算时 2sbh；需要预设模型的形状。zerolab 的激活值区：zerolab 为所选模型在微批次 b、序列长度 s 下分配的大小（fp32，Llama 族使用 FlashAttention）。</translation>
    </message>
    <message>
        <source>The Llama family at 4096 tokens, its exact activations</source>
        <translation>Llama 族，4096 个词元，精确的激活值</translation>
    </message>
    <message>
        <source>Loaded: %1 at stage %2, b = %3, s = %4, recompute %5 on %6 × %7: model states %8 + activations %9 + buffers %10 = %11 per GPU, %12.</source>
        <translation>已载入：%1，阶段 %2，b = %3，s = %4，重计算 %5，%6 × %7：模型状态 %8 + 激活值 %9 + 缓冲区 %10 = 每张 GPU %11，%12。</translation>
    </message>
    <message>
        <source>fits with %1 to spare</source>
        <translation>放得下，余量 %1</translation>
    </message>
    <message>
        <source>short by %1</source>
        <translation>还差 %1</translation>
    </message>
    <message>
        <source>zerolab&apos;s arena needs a model&apos;s shape: pick a Llama model above. Not counted.</source>
        <translation>zerolab 的激活值区需要模型的形状：请在上方选择一个 Llama 模型。不计入。</translation>
    </message>
    <message>
        <source>%1 × %2 layers + %3 = %4 at b = %5, s = %6, recompute %7: zerolab&apos;s arena for %8 (fp32 activations, as zerolab&apos;s CPU engine keeps them; flash attention, so no s² term)</source>
        <translation>%1 × %2 层 + %3 = %4，b = %5，s = %6，重计算 %7：zerolab 为 %8 分配的激活值区（fp32 激活值，这是 zerolab 的 CPU 引擎的做法；FlashAttention，所以没有 s² 项）</translation>
    </message>
</context>
<context>
    <name>zerolab::LiveController</name>
    <message>
        <source>a run is already live; stop it first</source>
        <translation>已有运行在进行；请先停止它</translation>
    </message>
    <message>
        <source>cannot create the launch folder %1</source>
        <translation>无法创建启动文件夹 %1</translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <source>$ %1</source>
        <translation>$ %1</translation>
    </message>
    <message>
        <source>Asked run %1 to stop after its current step</source>
        <translation>已请求运行 %1 在当前步之后停止</translation>
    </message>
    <message>
        <source>Sent SIGKILL to rank 0 (pid %1)</source>
        <translation>已向进程 0 发送 SIGKILL（pid %1）</translation>
    </message>
    <message>
        <source>Apply &amp; restart needs a run started from this window</source>
        <translation>“应用并重启”需要一个从本窗口启动的运行</translation>
    </message>
    <message>
        <source>the global batch %1 cannot be split into %2 ranks × %3 micro-steps</source>
        <translation>全局批次 %1 无法拆分为 %2 个进程 × %3 个微步</translation>
    </message>
    <message>
        <source>Stopping with a checkpoint, then restarting with ZeRO %1, N = %2, accumulation %3</source>
        <translation>正在停止并保存检查点，然后以 ZeRO %1、N = %2、梯度累积 %3 重启</translation>
    </message>
    <message>
        <source>nothing to resume: no ended run was started from this window</source>
        <translation>没有可恢复的：没有从本窗口启动且已结束的运行</translation>
    </message>
    <message>
        <source>Run %1 stopped with a checkpoint</source>
        <translation>运行 %1 已停止并保存了检查点</translation>
    </message>
    <message>
        <source>Killed from zerolab (SIGKILL to the process group).</source>
        <translation>已由 zerolab 强制结束（向进程组发送 SIGKILL）。</translation>
    </message>
    <message>
        <source>The runtime rejected its input (exit 2); the log says why.</source>
        <translation>运行时拒绝了输入（退出码 2）；原因见日志。</translation>
    </message>
    <message>
        <source>The launcher ended with %1; the log has its messages.</source>
        <translation>启动器以 %1 结束；其消息见日志。</translation>
    </message>
    <message>
        <source>a signal</source>
        <translation>一个信号</translation>
    </message>
    <message>
        <source>exit code %1</source>
        <translation>退出码 %1</translation>
    </message>
    <message>
        <source>launcher: %1</source>
        <translation>启动器：%1</translation>
    </message>
    <message>
        <source>error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <source>run %1 has no checkpoint to resume from</source>
        <translation>运行 %1 没有可用于恢复的检查点</translation>
    </message>
    <message>
        <source>Resuming run %1 from step %2</source>
        <translation>正在从第 %2 步恢复运行 %1</translation>
    </message>
</context>
<context>
    <name>zerolab::LivePanel</name>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Kill</source>
        <translation>强制结束</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>Checkpoint now</source>
        <translation>立即保存检查点</translation>
    </message>
    <message>
        <source>Set lr</source>
        <translation>设置学习率</translation>
    </message>
    <message>
        <source>Apply &amp;&amp; restart…</source>
        <translation>应用并重启…</translation>
    </message>
    <message>
        <source>Resume from last checkpoint</source>
        <translation>从最近的检查点恢复</translation>
    </message>
    <message>
        <source>Kill job</source>
        <translation>强制结束作业</translation>
    </message>
    <message>
        <source>Kill &amp;&amp; resume from last checkpoint</source>
        <translation>强制结束并从最近的检查点恢复</translation>
    </message>
    <message>
        <source>Graceful: SIGTERM to the job&apos;s process group; the ranks finish the step and write a checkpoint (status stopped). SIGKILL if they have not ended after the timeout.</source>
        <translation>优雅停止：向作业的进程组发送 SIGTERM；各进程完成当前步并写入检查点（状态为已停止）。超时仍未结束则发送 SIGKILL。</translation>
    </message>
    <message>
        <source>SIGKILL to every process of the job at once (status failed).</source>
        <translation>立即向作业的每个进程发送 SIGKILL（状态为失败）。</translation>
    </message>
    <message>
        <source>Rank 0 holds every rank before the next step (a store command).</source>
        <translation>进程 0 在下一步之前让所有进程暂停（一条存储命令）。</translation>
    </message>
    <message>
        <source>Write a checkpoint after the current step.</source>
        <translation>在当前步之后写入检查点。</translation>
    </message>
    <message>
        <source>New learning rate, applied from the next step on every rank.</source>
        <translation>新的学习率，从下一步起在每个进程上生效。</translation>
    </message>
    <message>
        <source>Change ZeRO stage, world size or accumulation mid-run: stop with a checkpoint, relaunch from it. The optimizer state is re-partitioned; the plots continue as a new segment.</source>
        <translation>在运行中途更改 ZeRO 阶段、进程数或梯度累积：保存检查点后停止，再从它重新启动。优化器状态会重新分片；图表以新的一段继续。</translation>
    </message>
    <message>
        <source>SIGKILL to every process of the job (status failed). A stalled rank does not answer a graceful stop.</source>
        <translation>向作业的每个进程发送 SIGKILL（状态为失败）。卡住的进程不会响应优雅停止。</translation>
    </message>
    <message>
        <source>Kill the job, then relaunch it from its newest checkpoint with the same config (a run started from this window).</source>
        <translation>强制结束作业，然后用相同配置从其最新检查点重新启动（限从本窗口启动的运行）。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Run stalled.&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;运行卡住了。&lt;/b&gt; %1</translation>
    </message>
    <message>
        <source>%1: run #%2</source>
        <translation>%1：运行 #%2</translation>
    </message>
    <message>
        <source>signal %1 (%2)</source>
        <translation>信号 %1（%2）</translation>
    </message>
    <message>
        <source>exited</source>
        <translation>已退出</translation>
    </message>
    <message>
        <source>&lt;b&gt;Run failed.&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;运行失败。&lt;/b&gt; %1</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>died: %1</source>
        <translation>已终止：%1</translation>
    </message>
    <message>
        <source>ended</source>
        <translation>已结束</translation>
    </message>
    <message>
        <source>starting</source>
        <translation>启动中</translation>
    </message>
    <message>
        <source>ZeRO %1 · N = %2 · accumulation %3 &amp;nbsp;&amp;nbsp; </source>
        <translation>ZeRO %1 · N = %2 · 梯度累积 %3 &amp;nbsp;&amp;nbsp; </translation>
    </message>
    <message>
        <source>Apply &amp; restart</source>
        <translation>应用并重启</translation>
    </message>
    <message>
        <source>ZeRO stage</source>
        <translation>ZeRO 阶段</translation>
    </message>
    <message>
        <source>World size N</source>
        <translation>进程数 N</translation>
    </message>
    <message>
        <source>Accumulation</source>
        <translation>梯度累积</translation>
    </message>
    <message>
        <source>The global batch (%1) stays the same; the run stops with a checkpoint and resumes from it.</source>
        <translation>全局批次（%1）保持不变；运行保存检查点后停止，再从该检查点恢复。</translation>
    </message>
    <message>
        <source>live</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>stopping</source>
        <translation>停止中</translation>
    </message>
    <message>
        <source>restarting</source>
        <translation>重启中</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:%1&apos;&gt;●&lt;/span&gt; rank %2 &lt;span style=&apos;color:%3&apos;&gt;%4&lt;/span&gt;</source>
        <translation>&lt;span style=&apos;color:%1&apos;&gt;●&lt;/span&gt; 进程 %2 &lt;span style=&apos;color:%3&apos;&gt;%4&lt;/span&gt;</translation>
    </message>
</context>
<context>
    <name>zerolab::LogConsole</name>
    <message>
        <source>Errors only</source>
        <translation>仅错误</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <source>all ranks</source>
        <translation>所有进程</translation>
    </message>
    <message>
        <source>launcher</source>
        <translation>启动器</translation>
    </message>
    <message>
        <source>Lines of one rank only (mpirun --tag-output prefixes every line).</source>
        <translation>只显示一个进程的行（mpirun --tag-output 会给每行加前缀）。</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>清空</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>进程 %1</translation>
    </message>
</context>
<context>
    <name>zerolab::MainWindow</name>
    <message>
        <source>Runs</source>
        <translation>运行列表</translation>
    </message>
    <message>
        <source>Console</source>
        <translation>控制台</translation>
    </message>
    <message>
        <source>zerolab</source>
        <translation>zerolab</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s)</source>
        <translation>
            <numerusform>%n 个运行</numerusform>
        </translation>
    </message>
    <message>
        <source>The trial&apos;s config is in Setup (not saved to a file yet)</source>
        <translation>该试验的配置已载入“设置”（尚未保存到文件）</translation>
    </message>
    <message numerus="yes">
        <source>the config has %n error(s); fix them in Setup first</source>
        <translation>
            <numerusform>配置有 %n 个错误；请先在“设置”中修正</numerusform>
        </translation>
    </message>
    <message>
        <source>no run store is open</source>
        <translation>没有打开运行存储</translation>
    </message>
    <message>
        <source>starting…</source>
        <translation>启动中…</translation>
    </message>
    <message>
        <source>step %1 / %2 · ETA %3 · %4 tokens/s</source>
        <translation>第 %1 / %2 步 · 预计剩余 %3 · %4 词元/秒</translation>
    </message>
    <message>
        <source>A run is live</source>
        <translation>有运行正在进行</translation>
    </message>
    <message>
        <source>Run %1 is still training. Stop it (with a checkpoint), leave it running (it keeps writing the store and shows up live when zerolab opens again), or cancel?</source>
        <translation>运行 %1 仍在训练。要停止它（保存检查点）、让它继续运行（它会继续写入存储，下次打开 zerolab 时实时显示），还是取消？</translation>
    </message>
    <message>
        <source>Stop run</source>
        <translation>停止运行</translation>
    </message>
    <message>
        <source>Leave running</source>
        <translation>继续运行</translation>
    </message>
    <message>
        <source>Open run store</source>
        <translation>打开运行存储</translation>
    </message>
    <message>
        <source>Run stores (*.db);;All files (*)</source>
        <translation>运行存储 (*.db);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Open config</source>
        <translation>打开配置</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Start run</source>
        <translation>开始运行</translation>
    </message>
    <message>
        <source>Setup</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Learn</source>
        <translation>学习</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <source>Tune</source>
        <translation>调优</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>Open run store…</source>
        <translation>打开运行存储…</translation>
    </message>
    <message>
        <source>Open config…</source>
        <translation>打开配置…</translation>
    </message>
    <message>
        <source>▶  Start run</source>
        <translation>▶  开始运行</translation>
    </message>
    <message>
        <source>Validate the Setup config and launch it with mpirun (Ctrl+R)</source>
        <translation>校验“设置”中的配置并用 mpirun 启动（Ctrl+R）</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>Store: %1</source>
        <translation>存储：%1</translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation>正在打开 %1…</translation>
    </message>
    <message>
        <source>No %1 translation in this build</source>
        <translation>此版本没有 %1 翻译</translation>
    </message>
    <message>
        <source>Lab</source>
        <translation>实验室</translation>
    </message>
    <message>
        <source>Language: %1</source>
        <translation>语言：%1</translation>
    </message>
    <message>
        <source>Store: %1 (read-only: on a read-only file system; notes, tags and runs cannot be changed)</source>
        <translation>存储：%1（只读：位于只读文件系统上；无法修改备注、标签和运行）</translation>
    </message>
    <message>
        <source>Larger text</source>
        <translation>放大文字</translation>
    </message>
    <message>
        <source>Smaller text</source>
        <translation>缩小文字</translation>
    </message>
    <message>
        <source>Normal text size</source>
        <translation>正常文字大小</translation>
    </message>
    <message>
        <source>Chart under the mouse full screen</source>
        <translation>全屏显示鼠标下的图表</translation>
    </message>
</context>
<context>
    <name>zerolab::MemoryBarChart</name>
    <message>
        <source>bytes per parameter</source>
        <translation>每参数字节数</translation>
    </message>
    <message>
        <source>- - -  %1</source>
        <translation>- - -  %1</translation>
    </message>
    <message>
        <source>%1  (above the scale)</source>
        <translation>%1  （超出刻度）</translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;&lt;b&gt;Total&lt;/b&gt;&lt;/td&gt;&lt;td align=&apos;right&apos;&gt;&amp;nbsp;&lt;b&gt;%1&lt;/b&gt;&lt;/td&gt;&lt;/tr&gt;</source>
        <translation>&lt;tr&gt;&lt;td&gt;&lt;b&gt;合计&lt;/b&gt;&lt;/td&gt;&lt;td align=&apos;right&apos;&gt;&amp;nbsp;&lt;b&gt;%1&lt;/b&gt;&lt;/td&gt;&lt;/tr&gt;</translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;Predicted&lt;/td&gt;&lt;td align=&apos;right&apos;&gt;&amp;nbsp;%1&lt;/td&gt;&lt;/tr&gt;</source>
        <translation>&lt;tr&gt;&lt;td&gt;预测&lt;/td&gt;&lt;td align=&apos;right&apos;&gt;&amp;nbsp;%1&lt;/td&gt;&lt;/tr&gt;</translation>
    </message>
    <message>
        <source>Memory per rank</source>
        <translation>每进程内存</translation>
    </message>
</context>
<context>
    <name>zerolab::ParetoChart</name>
    <message>
        <source>Throughput (tokens/s)</source>
        <translation>吞吐量（词元/秒）</translation>
    </message>
    <message>
        <source>Peak memory per rank (%1)</source>
        <translation>每进程峰值内存（%1）</translation>
    </message>
    <message>
        <source>Pareto frontier</source>
        <translation>帕累托前沿</translation>
    </message>
    <message>
        <source>ZeRO %1</source>
        <translation>ZeRO %1</translation>
    </message>
    <message>
        <source>capacity %1</source>
        <translation>容量 %1</translation>
    </message>
    <message>
        <source>%1: far to the right, every point fits</source>
        <translation>%1：远在右侧，所有点都放得下</translation>
    </message>
    <message>
        <source>No finished trial yet: each appears here as it ends.</source>
        <translation>还没有完成的试验：每个试验结束时会出现在这里。</translation>
    </message>
    <message>
        <source>Trial %1: %2
%3 tokens/s · peak %4 per rank%5</source>
        <translation>试验 %1：%2
%3 词元/秒 · 每进程峰值 %4%5</translation>
    </message>
    <message>
        <source>
On the Pareto frontier</source>
        <translation>
在帕累托前沿上</translation>
    </message>
    <message>
        <source>forecast (hollow)</source>
        <translation>预测（空心）</translation>
    </message>
</context>
<context>
    <name>zerolab::RunProcess</name>
    <message>
        <source>cannot create %1: %2</source>
        <translation>无法创建 %1：%2</translation>
    </message>
</context>
<context>
    <name>zerolab::RunView</name>
    <message>
        <source>Step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Throughput (tokens/s)</source>
        <translation>吞吐量（词元/秒）</translation>
    </message>
    <message>
        <source>Step time (ms)</source>
        <translation>步时间 (ms)</translation>
    </message>
    <message>
        <source>No steps logged yet</source>
        <translation>尚未记录任何步</translation>
    </message>
    <message>
        <source>No rank rows yet</source>
        <translation>尚无进程数据</translation>
    </message>
    <message>
        <source>Smoothing</source>
        <translation>平滑</translation>
    </message>
    <message>
        <source>Exponential moving average of the loss; 0 shows the raw curve only.</source>
        <translation>损失的指数滑动平均；0 表示只显示原始曲线。</translation>
    </message>
    <message>
        <source>Hold scale</source>
        <translation>固定刻度</translation>
    </message>
    <message>
        <source>Keep the value axis at its current top while you open other runs, so their bars compare by eye.</source>
        <translation>打开其他运行时保持数值轴的当前上限，便于目测比较条形。</translation>
    </message>
    <message>
        <source>Bytes per parameter</source>
        <translation>每参数字节数</translation>
    </message>
    <message>
        <source>Divide by ψ: a bf16 run at N = 2 reads 16, 10, 9 and 8 bytes per parameter at stages 0-3.</source>
        <translation>除以 ψ：N = 2 的 bf16 运行在阶段 0-3 分别为每参数 16、10、9 和 8 字节。</translation>
    </message>
    <message>
        <source>Model states only</source>
        <translation>仅模型状态</translation>
    </message>
    <message>
        <source>Hide activations, comm buffers and workspace: what ZeRO shards (params, master, grads, Adam m and v).</source>
        <translation>隐藏激活值、通信缓冲区和工作区：只看 ZeRO 分片的部分（参数、主参数、梯度、Adam m 和 v）。</translation>
    </message>
    <message>
        <source>Mean over the global batch</source>
        <translation>全局批次上的平均值</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>Global tokens / step time</source>
        <translation>全局词元数 / 步时间</translation>
    </message>
    <message>
        <source>Step time breakdown</source>
        <translation>步时间分解</translation>
    </message>
    <message>
        <source>Stacked, per step</source>
        <translation>按步堆叠</translation>
    </message>
    <message>
        <source>Collective time per rank</source>
        <translation>每进程集合通信时间</translation>
    </message>
    <message>
        <source>Memory per rank</source>
        <translation>每进程内存</translation>
    </message>
    <message>
        <source>Ledger categories; dashed outline: the planner&apos;s prediction</source>
        <translation>账本类别；虚线轮廓：规划器的预测</translation>
    </message>
    <message>
        <source>Bus bandwidth per rank</source>
        <translation>每进程总线带宽</translation>
    </message>
    <message>
        <source>Memory in use per rank</source>
        <translation>每进程已用内存</translation>
    </message>
    <message>
        <source>Traffic per rank per step</source>
        <translation>每进程每步通信量</translation>
    </message>
    <message>
        <source>Sent under ring algorithms; dashed: forecast</source>
        <translation>按环形算法发送的量；虚线：预测</translation>
    </message>
    <message>
        <source>Step timeline</source>
        <translation>步内时间线</translation>
    </message>
    <message>
        <source>Inside one sampled step: each rank&apos;s compute and communication</source>
        <translation>一个采样步内部：每个进程的计算与通信</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>Start, checkpoints, commands, data epochs, errors</source>
        <translation>启动、检查点、命令、数据轮次、错误</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>已写入 %1</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Export plots…</source>
        <translation>导出图表…</translation>
    </message>
    <message>
        <source>Every plot as PNG and PDF into a folder. Right-click a plot to export just that one.</source>
        <translation>把每张图以 PNG 和 PDF 导出到一个文件夹。右键单击某张图可只导出该图。</translation>
    </message>
    <message>
        <source>x axis</source>
        <translation>x 轴</translation>
    </message>
    <message>
        <source>Wall time</source>
        <translation>墙钟时间</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>词元数</translation>
    </message>
    <message>
        <source>Per-rank charts at</source>
        <translation>每进程图表位于</translation>
    </message>
    <message>
        <source>Choose the logged step the per-rank charts show; the far right follows the latest step.</source>
        <translation>选择每进程图表显示的已记录步；拖到最右侧则跟随最新一步。</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>Export metrics</source>
        <translation>导出指标</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Export plots into</source>
        <translation>导出图表到</translation>
    </message>
    <message>
        <source>Wrote %1 files to %2</source>
        <translation>已向 %2 写入 %1 个文件</translation>
    </message>
    <message>
        <source>ZeRO stage &lt;b&gt;%1&lt;/b&gt;</source>
        <translation>ZeRO 阶段 &lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>N = &lt;b&gt;%1&lt;/b&gt;</source>
        <translation>N = &lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;GPU&lt;/b&gt; (cuda)</source>
        <translation>&lt;b&gt;GPU&lt;/b&gt; (cuda)</translation>
    </message>
    <message>
        <source>ψ = %1</source>
        <translation>ψ = %1</translation>
    </message>
    <message>
        <source>%1 steps logged</source>
        <translation>已记录 %1 步</translation>
    </message>
    <message>
        <source>last loss &lt;b&gt;%1&lt;/b&gt;</source>
        <translation>最后损失 &lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>planner: %1 per rank</source>
        <translation>规划器：每进程 %1</translation>
    </message>
    <message>
        <source>loss (raw)</source>
        <translation>损失（原始）</translation>
    </message>
    <message>
        <source>loss (EMA %1)</source>
        <translation>损失（EMA %1）</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>词元/秒</translation>
    </message>
    <message>
        <source>forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <source>backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <source>exposed comm</source>
        <translation>暴露的通信</translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <source>forecast</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>Traffic per step (ψ elements)</source>
        <translation>每步通信量（ψ 个元素）</translation>
    </message>
    <message>
        <source>segment %1: ZeRO %2, N=%3</source>
        <translation>段 %1：ZeRO %2，N=%3</translation>
    </message>
    <message>
        <source>all-reduce</source>
        <translation>全规约</translation>
    </message>
    <message>
        <source>reduce-scatter</source>
        <translation>归约-散射</translation>
    </message>
    <message>
        <source>all-gather</source>
        <translation>全收集</translation>
    </message>
    <message>
        <source>broadcast</source>
        <translation>广播</translation>
    </message>
    <message>
        <source>exposed</source>
        <translation>暴露</translation>
    </message>
    <message>
        <source>busbw</source>
        <translation>总线带宽</translation>
    </message>
    <message>
        <source>rss</source>
        <translation>常驻内存</translation>
    </message>
    <message>
        <source>peak</source>
        <translation>峰值</translation>
    </message>
    <message>
        <source>device used (whole GPU)</source>
        <translation>设备已用（整块 GPU）</translation>
    </message>
    <message>
        <source>device used: the bytes in use on the rank&apos;s whole GPU (cudaMemGetInfo: every process on it, the CUDA context included), not the rank&apos;s own. Ranks that share a GPU (the host-staged path; the run&apos;s &quot;rank 0 runs on&quot; event says how many ranks are on its GPU) each show that GPU&apos;s total: do not add them up. peak: the highest such reading in the step.</source>
        <translation>设备已用：该进程所在整块 GPU 上已用的字节数（cudaMemGetInfo：其上所有进程，含 CUDA 上下文），而非该进程自身的用量。共用一块 GPU 的进程（主机中转路径；运行的“rank 0 runs on”事件说明其 GPU 上有几个进程）各自显示该 GPU 的总量：不要相加。峰值：该步中此读数的最高值。</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>进程 %1</translation>
    </message>
    <message>
        <source>Time per step (ms) · rank</source>
        <translation>每步时间 (ms) · 进程</translation>
    </message>
    <message>
        <source>Bus bandwidth (GB/s) · rank</source>
        <translation>总线带宽 (GB/s) · 进程</translation>
    </message>
    <message>
        <source>GPU memory (%1) · rank</source>
        <translation>GPU 显存 (%1) · 进程</translation>
    </message>
    <message>
        <source>Resident (%1) · rank</source>
        <translation>常驻内存 (%1) · 进程</translation>
    </message>
    <message>
        <source>&lt;p style=&apos;font-size:14pt; font-weight:600; color:%1&apos;&gt;No run open&lt;/p&gt;&lt;p style=&apos;color:%2&apos;&gt;Pick a run in the &lt;b&gt;Runs&lt;/b&gt; panel to see its loss, throughput, communication and per-rank memory.&lt;/p&gt;&lt;p style=&apos;color:%2&apos;&gt;No runs yet? Start one with &lt;code&gt;make run&lt;/code&gt;, or&lt;br&gt;&lt;code&gt;mpirun -np 2 build/bin/zerolab-train --config FILE&lt;/code&gt;&lt;/p&gt;</source>
        <translation>&lt;p style=&apos;font-size:14pt; font-weight:600; color:%1&apos;&gt;没有打开的运行&lt;/p&gt;&lt;p style=&apos;color:%2&apos;&gt;在&lt;b&gt;运行列表&lt;/b&gt;面板中选择一个运行，查看它的损失、吞吐量、通信和每进程内存。&lt;/p&gt;&lt;p style=&apos;color:%2&apos;&gt;还没有运行？用 &lt;code&gt;make run&lt;/code&gt; 启动一个，或者&lt;br&gt;&lt;code&gt;mpirun -np 2 build/bin/zerolab-train --config FILE&lt;/code&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Comms summary…</source>
        <translation>通信汇总…</translation>
    </message>
    <message>
        <source>The comms logger&apos;s log_summary table of this run, from its stored step timelines</source>
        <translation>这个运行的 comms_logger 汇总表（log_summary），取自它存储的步骤时间线</translation>
    </message>
    <message>
        <source>Rank rows: %1</source>
        <translation>各进程的行：%1</translation>
    </message>
    <message>
        <source>Traffic by link</source>
        <translation>按链路的流量</translation>
    </message>
    <message>
        <source>Bytes per rank per step sent within its host and across hosts</source>
        <translation>每个进程每步发往本主机内与跨主机的字节数</translation>
    </message>
    <message>
        <source>within a host</source>
        <translation>主机内</translation>
    </message>
    <message>
        <source>across hosts</source>
        <translation>跨主机</translation>
    </message>
    <message>
        <source>Traffic per rank per step (MB)</source>
        <translation>每进程每步流量 (MB)</translation>
    </message>
    <message>
        <source>; dashed: the step-time model on this machine&apos;s profile (calibrated %1)</source>
        <translation>；虚线：步时间模型基于本机配置档（校准于 %1）的预测</translation>
    </message>
    <message>
        <source>; no forecast line: no calibrated profile in the store (zerolab-calibrate --db)</source>
        <translation>；无预测线：存储中没有校准的配置档（zerolab-calibrate --db）</translation>
    </message>
    <message>
        <source>forecast step time</source>
        <translation>预测步时间</translation>
    </message>
    <message>
        <source>step &lt;b&gt;%1&lt;/b&gt; of %2</source>
        <translation>第 &lt;b&gt;%1&lt;/b&gt; 步，共 %2 步</translation>
    </message>
    <message>
        <source>; no forecast line: this machine&apos;s profile cannot forecast this run: %1</source>
        <translation>；无预测线：本机的配置档无法预测这个运行：%1</translation>
    </message>
    <message numerus="yes">
        <source>measured (median of %n step(s))</source>
        <translation>
            <numerusform>实测（%n 步的中位数）</numerusform>
        </translation>
    </message>
    <message>
        <source>Time per step (ms)</source>
        <translation>每步时间（ms）</translation>
    </message>
</context>
<context>
    <name>zerolab::RunsDock</name>
    <message>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <source>Filter: name, tag, status, notes…</source>
        <translation>筛选：名称、标签、状态、备注…</translation>
    </message>
    <message>
        <source>tags, comma separated</source>
        <translation>标签，用逗号分隔</translation>
    </message>
    <message>
        <source>Notes on this run…</source>
        <translation>关于此运行的备注…</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Save the tags and notes of this run</source>
        <translation>保存此运行的标签和备注</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <source>Delete this run from the store (asks first)</source>
        <translation>从存储中删除此运行（会先确认）</translation>
    </message>
    <message>
        <source>Open the selected runs (two or more) in the Compare tab</source>
        <translation>在“比较”标签页中打开选中的运行（两个或更多）</translation>
    </message>
    <message>
        <source>No run selected</source>
        <translation>未选择运行</translation>
    </message>
    <message>
        <source>%1 runs selected</source>
        <translation>已选择 %1 个运行</translation>
    </message>
    <message>
        <source>Tag “%1”: %2</source>
        <translation>标签“%1”：%2</translation>
    </message>
    <message>
        <source>Notes: %1</source>
        <translation>备注：%1</translation>
    </message>
    <message>
        <source>Not saved</source>
        <translation>未保存</translation>
    </message>
    <message>
        <source>Delete run</source>
        <translation>删除运行</translation>
    </message>
    <message>
        <source>Delete run #%1 “%2” and every step, event and checkpoint record it has?
Checkpoint files on disk are not touched. This cannot be undone.</source>
        <translation>删除运行 #%1“%2”及其所有步、事件和检查点记录？
磁盘上的检查点文件不受影响。此操作无法撤销。</translation>
    </message>
    <message>
        <source>&lt;p style=&apos;font-size:12pt; font-weight:600; color:%1&apos;&gt;Cannot open the run store&lt;/p&gt;&lt;p&gt;&lt;code&gt;%3&lt;/code&gt;&lt;/p&gt;&lt;p style=&apos;color:%2&apos;&gt;%4&lt;/p&gt;&lt;p style=&apos;color:%2&apos;&gt;Pick another with File &amp;gt; Open run store…&lt;/p&gt;</source>
        <translation>&lt;p style=&apos;font-size:12pt; font-weight:600; color:%1&apos;&gt;无法打开运行存储&lt;/p&gt;&lt;p&gt;&lt;code&gt;%3&lt;/code&gt;&lt;/p&gt;&lt;p style=&apos;color:%2&apos;&gt;%4&lt;/p&gt;&lt;p style=&apos;color:%2&apos;&gt;请用 文件 &amp;gt; 打开运行存储… 选择另一个&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p style=&apos;font-size:12pt; font-weight:600; color:%1&apos;&gt;No runs yet&lt;/p&gt;&lt;p style=&apos;color:%2&apos;&gt;Press &lt;b&gt;▶ Start run&lt;/b&gt; in Setup, or start one from a terminal:&lt;/p&gt;&lt;p&gt;&lt;code&gt;make run&lt;/code&gt;&lt;/p&gt;&lt;p style=&apos;color:%2&apos;&gt;or&lt;/p&gt;&lt;p&gt;&lt;code&gt;mpirun -np 2 build/bin/zerolab-train&lt;br&gt;--config resources/configs/micro-stage1.json&lt;/code&gt;&lt;/p&gt;&lt;p style=&apos;color:%2&apos;&gt;It appears here while it trains.&lt;/p&gt;</source>
        <translation>&lt;p style=&apos;font-size:12pt; font-weight:600; color:%1&apos;&gt;还没有运行&lt;/p&gt;&lt;p style=&apos;color:%2&apos;&gt;在“设置”中按 &lt;b&gt;▶ 开始运行&lt;/b&gt;，或从终端启动：&lt;/p&gt;&lt;p&gt;&lt;code&gt;make run&lt;/code&gt;&lt;/p&gt;&lt;p style=&apos;color:%2&apos;&gt;或者&lt;/p&gt;&lt;p&gt;&lt;code&gt;mpirun -np 2 build/bin/zerolab-train&lt;br&gt;--config resources/configs/micro-stage1.json&lt;/code&gt;&lt;/p&gt;&lt;p style=&apos;color:%2&apos;&gt;运行在训练时就会出现在这里。&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>zerolab::RunsModel</name>
    <message>
        <source>started %1</source>
        <translation>开始于 %1</translation>
    </message>
    <message>
        <source> on %1</source>
        <translation>，在 %1 上</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>N</source>
        <translation>N</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Tokens/s</source>
        <translation>词元/秒</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>%1 (no heartbeat for %2)</source>
        <translation>%1（已 %2 无心跳）</translation>
    </message>
    <message>
        <source>stored as %1: rank 0 is stopped or hung</source>
        <translation>存储的状态为 %1：rank 0 已停止或挂起</translation>
    </message>
</context>
<context>
    <name>zerolab::SetupView</name>
    <message>
        <source>Per-rank memory forecast</source>
        <translation>每进程内存预测</translation>
    </message>
    <message>
        <source>Config JSON</source>
        <translation>配置 JSON</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>打开…</translation>
    </message>
    <message>
        <source>Import…</source>
        <translation>导入…</translation>
    </message>
    <message>
        <source>Import any DeepSpeed JSON: keys zerolab does not implement are listed as warnings and ignored.</source>
        <translation>导入任意 DeepSpeed JSON：zerolab 未实现的键会作为警告列出并被忽略。</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Save as…</source>
        <translation>另存为…</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>Import a DeepSpeed config</source>
        <translation>导入 DeepSpeed 配置</translation>
    </message>
    <message>
        <source>Open a zerolab config</source>
        <translation>打开 zerolab 配置</translation>
    </message>
    <message>
        <source>JSON (*.json);;All files (*)</source>
        <translation>JSON (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>imported from %1</source>
        <translation>导入自 %1</translation>
    </message>
    <message>
        <source>Save config</source>
        <translation>保存配置</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>line %1  </source>
        <translation>第 %1 行  </translation>
    </message>
    <message numerus="yes">
        <source>, %n warning(s)</source>
        <translation>
            <numerusform>，%n 个警告</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:%1&apos;&gt;&amp;#10003; Valid&lt;/span&gt; &lt;span style=&apos;color:%2&apos;&gt;— checked by the same validator as &lt;code&gt;zerolab-train --check-config&lt;/code&gt;%3&lt;/span&gt;</source>
        <translation>&lt;span style=&apos;color:%1&apos;&gt;&amp;#10003; 有效&lt;/span&gt; &lt;span style=&apos;color:%2&apos;&gt;— 由与 &lt;code&gt;zerolab-train --check-config&lt;/code&gt; 相同的校验器检查%3&lt;/span&gt;</translation>
    </message>
    <message numerus="yes">
        <source>&lt;span style=&apos;color:%1&apos;&gt;%n error(s)&lt;/span&gt;</source>
        <translation>
            <numerusform>&lt;span style=&apos;color:%1&apos;&gt;%n 个错误&lt;/span&gt;</numerusform>
        </translation>
    </message>
    <message>
        <source> &lt;span style=&apos;color:%1&apos;&gt;— the forecast is greyed: it is the last valid config&apos;s&lt;/span&gt;</source>
        <translation> &lt;span style=&apos;color:%1&apos;&gt;— 预测已变灰：它是最后一个有效配置的&lt;/span&gt;</translation>
    </message>
    <message>
        <source>Step-time forecast</source>
        <translation>步时间预测</translation>
    </message>
    <message>
        <source>Memory per rank</source>
        <translation>每进程内存</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>步时间</translation>
    </message>
    <message>
        <source>Calibrated: the profile is kept in the run store and the forecast uses it.</source>
        <translation>已校准：配置档已保存在运行存储中，预测正在使用它。</translation>
    </message>
    <message>
        <source>Calibration cancelled: nothing was written to the run store.</source>
        <translation>校准已取消：没有向运行存储写入任何内容。</translation>
    </message>
    <message>
        <source>Calibration failed: %1</source>
        <translation>校准失败：%1</translation>
    </message>
    <message>
        <source>Open a run store first: the profile is kept there.</source>
        <translation>请先打开运行存储：配置档保存在那里。</translation>
    </message>
    <message>
        <source>Starting zerolab-calibrate…</source>
        <translation>正在启动 zerolab-calibrate…</translation>
    </message>
</context>
<context>
    <name>zerolab::StepTimeCard</name>
    <message>
        <source>Profile</source>
        <translation>配置档</translation>
    </message>
    <message>
        <source>The machine profile of the step-time model: this machine as zerolab-calibrate measured it (kept in the run store), or a cluster of datasheet GPUs (docs/planner.md).</source>
        <translation>步时间模型所用的机器配置档：zerolab-calibrate 测得的本机（保存在运行存储中），或按数据手册的 GPU 集群（docs/planner.md）。</translation>
    </message>
    <message>
        <source>No step-time forecast until the config is valid.</source>
        <translation>配置有效之前没有步时间预测。</translation>
    </message>
    <message>
        <source>s</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>毫秒</translation>
    </message>
    <message>
        <source>µs</source>
        <translation>微秒</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>exposed communication</source>
        <translation>暴露的通信</translation>
    </message>
    <message>
        <source>Stage %1 (this config)</source>
        <translation>阶段 %1（本配置）</translation>
    </message>
    <message>
        <source>Stage %1</source>
        <translation>阶段 %1</translation>
    </message>
    <message>
        <source>cannot forecast</source>
        <translation>无法预测</translation>
    </message>
    <message>
        <source>Step time per rank (%1)</source>
        <translation>每进程步时间（%1）</translation>
    </message>
    <message>
        <source>Stage %1: %2 a step, %3 tokens/s (compute %4, exposed communication %5 of %6 in flight).</source>
        <translation>阶段 %1：每步 %2，%3 tokens/s（计算 %4，在途通信 %6 中暴露 %5）。</translation>
    </message>
    <message>
        <source>Stage %1: no step-time forecast: %2</source>
        <translation>阶段 %1：没有步时间预测：%2</translation>
    </message>
    <message>
        <source>Forecast from %1.</source>
        <translation>预测依据：%1。</translation>
    </message>
    <message>
        <source>No profile of this machine in the run store yet (zerolab-calibrate --db adds one).</source>
        <translation>运行存储中还没有本机的配置档（zerolab-calibrate --db 可添加）。</translation>
    </message>
    <message>
        <source>This machine&apos;s stored profile is refused: %1</source>
        <translation>本机存储的配置档被拒绝：%1</translation>
    </message>
    <message>
        <source>%1 · %2 tokens/s</source>
        <translation>%1 · %2 词元/秒</translation>
    </message>
    <message>
        <source>Calibrate this machine…</source>
        <translation>校准本机…</translation>
    </message>
    <message>
        <source>Runs zerolab-calibrate: this machine&apos;s kernel rates and collective times, kept in the run store as its profile (at most two minutes).</source>
        <translation>运行 zerolab-calibrate：测量本机的内核速率和集合通信时间，作为配置档保存在运行存储中（最多两分钟）。</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stops the calibration; nothing is written to the run store.</source>
        <translation>停止校准；不会向运行存储写入任何内容。</translation>
    </message>
</context>
<context>
    <name>zerolab::TimeSeriesPlot</name>
    <message>
        <source>Reset zoom</source>
        <translation>重置缩放</translation>
    </message>
    <message>
        <source>Export plot</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>Export as PDF…</source>
        <translation>导出为 PDF…</translation>
    </message>
    <message>
        <source>PDF document (*.pdf)</source>
        <translation>PDF 文档 (*.pdf)</translation>
    </message>
</context>
<context>
    <name>zerolab::TimelineChart</name>
    <message>
        <source>rank %1 compute</source>
        <translation>进程 %1 计算</translation>
    </message>
    <message>
        <source>rank %1 comm</source>
        <translation>进程 %1 通信</translation>
    </message>
    <message>
        <source>rank %1 memory</source>
        <translation>进程 %1 内存</translation>
    </message>
    <message>
        <source>Time since the step&apos;s start (ms)</source>
        <translation>自该步开始的时间 (ms)</translation>
    </message>
    <message>
        <source>No timeline yet</source>
        <translation>尚无时间线</translation>
    </message>
    <message>
        <source>No spans recorded in step %1</source>
        <translation>第 %1 步没有记录任何区间</translation>
    </message>
    <message>
        <source>The store holds this step&apos;s timeline, but no rank recorded an interval in it.</source>
        <translation>存储中有这一步的时间线，但没有进程在其中记录区间。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Memory strips&lt;/b&gt;: what changes inside the step, sampled at phase boundaries, 0 – %1 on every rank: %2.</source>
        <translation>&lt;b&gt;内存条带&lt;/b&gt;：步内变化的部分，在阶段边界采样，每个进程 0 – %1：%2。</translation>
    </message>
    <message>
        <source>Preallocated buffers: flat through the step (%1).</source>
        <translation>预分配的缓冲区：整步保持不变（%1）。</translation>
    </message>
    <message>
        <source>No memory samples in this step.</source>
        <translation>这一步没有内存采样。</translation>
    </message>
    <message>
        <source>Lines join one collective on every rank (at its start: a leaning line is a rank that joined late). Wheel: zoom · drag: pan · Shift+drag: zoom to interval · double-click: whole step.</source>
        <translation>连线把同一个集合通信在各进程上连起来（在其开始处：倾斜的线表示某个进程加入得晚）。滚轮：缩放 · 拖动：平移 · Shift+拖动：缩放到区间 · 双击：整步。</translation>
    </message>
    <message>
        <source>&lt;b&gt;rank %1 memory at %2&lt;/b&gt;&lt;table&gt;</source>
        <translation>&lt;b&gt;进程 %1 在 %2 的内存&lt;/b&gt;&lt;table&gt;</translation>
    </message>
    <message>
        <source>Whole step</source>
        <translation>整步</translation>
    </message>
    <message>
        <source>Export as %1…</source>
        <translation>导出为 %1…</translation>
    </message>
    <message>
        <source>Export timeline</source>
        <translation>导出时间线</translation>
    </message>
</context>
<context>
    <name>zerolab::TimelinePanel</name>
    <message>
        <source>Follow latest</source>
        <translation>跟随最新</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>The steps this run sampled (%1 in its config).</source>
        <translation>此运行采样的步（其配置中的 %1）。</translation>
    </message>
    <message>
        <source>Show each newly sampled step as the run records it.</source>
        <translation>运行记录新的采样步时立即显示。</translation>
    </message>
    <message>
        <source>No timeline recorded</source>
        <translation>未记录时间线</translation>
    </message>
    <message>
        <source>This run sampled no step timeline. Set &lt;code&gt;%1&lt;/code&gt; &amp;gt; 0 in the config (e.g. 50: every 50th step) to record what every rank computes and communicates inside a step.</source>
        <translation>此运行没有采样步内时间线。在配置中设置 &lt;code&gt;%1&lt;/code&gt; &amp;gt; 0（例如 50：每 50 步一次），即可记录每个进程在一步内的计算与通信。</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>rank %1 &lt;b&gt;%2&lt;/b&gt;</source>
        <translation>进程 %1 &lt;b&gt;%2&lt;/b&gt;</translation>
    </message>
    <message>
        <source>least rank %1 &lt;b&gt;%2&lt;/b&gt;, most rank %3 &lt;b&gt;%4&lt;/b&gt;</source>
        <translation>最少：进程 %1 &lt;b&gt;%2&lt;/b&gt;，最多：进程 %3 &lt;b&gt;%4&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Step %1 · %2 ranks · %3 · compute waiting on collectives: %4</source>
        <translation>第 %1 步 · %2 个进程 · %3 · 计算等待集合通信：%4</translation>
    </message>
    <message>
        <source>The timeline of step %1 cannot be shown</source>
        <translation>无法显示第 %1 步的时间线</translation>
    </message>
    <message>
        <source>Forecast of this step by the step-time model (rank 0&apos;s lanes, this machine&apos;s profile): %1 a step, against %2 measured.</source>
        <translation>步时间模型对此步的预测（进程 0 的泳道，本机配置档）：每步 %1，实测 %2。</translation>
    </message>
</context>
<context>
    <name>zerolab::TuneView</name>
    <message>
        <source>to run</source>
        <translation>待运行</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>扫描</translation>
    </message>
    <message>
        <source>Axis (config JSON path, or world)</source>
        <translation>轴（配置 JSON 路径，或 world）</translation>
    </message>
    <message>
        <source>Values</source>
        <translation>取值</translation>
    </message>
    <message>
        <source>Each row is an axis: a JSON path into the config (zero_optimization.stage, train_micro_batch_size_per_gpu, model.recompute, zero_optimization.overlap_comm, zero_optimization.reduce_bucket_size, …) or world for N, and its values as JSON separated by commas (strings in quotes).</source>
        <translation>每行是一条轴：配置中的 JSON 路径（zero_optimization.stage、train_micro_batch_size_per_gpu、model.recompute、zero_optimization.overlap_comm、zero_optimization.reduce_bucket_size 等），或表示 N 的 world，以及用逗号分隔的 JSON 取值（字符串加引号）。</translation>
    </message>
    <message>
        <source>Add axis</source>
        <translation>添加轴</translation>
    </message>
    <message>
        <source>Remove axis</source>
        <translation>删除轴</translation>
    </message>
    <message>
        <source>Guided (DeepSpeed&apos;s order)</source>
        <translation>引导式（DeepSpeed 的顺序）</translation>
    </message>
    <message>
        <source>Grid (every point)</source>
        <translation>网格（所有点）</translation>
    </message>
    <message>
        <source>Guided: per stage, raise the micro-batch while the forecast fits and throughput rises, then tune the bucket sizes at the best point. Grid: every point that fits.</source>
        <translation>引导式：对每个阶段，在预测放得下且吞吐量上升时增大微批次，再在最佳点上调桶大小。网格：所有放得下的点。</translation>
    </message>
    <message>
        <source>Host RAM ÷ N</source>
        <translation>主机内存 ÷ N</translation>
    </message>
    <message>
        <source>Fixed, per rank</source>
        <translation>固定值，每进程</translation>
    </message>
    <message>
        <source> GB</source>
        <translation> GB</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>A trial still running after this long is killed (its whole process group) and recorded as timeout; the sweep goes on.</source>
        <translation>超过此时长仍在运行的试验会被强制结束（整个进程组）并记为超时；扫描继续进行。</translation>
    </message>
    <message>
        <source>Hold the global batch (accumulation follows)</source>
        <translation>保持全局批次（梯度累积随之调整）</translation>
    </message>
    <message>
        <source>Strategy</source>
        <translation>策略</translation>
    </message>
    <message>
        <source>Capacity</source>
        <translation>容量</translation>
    </message>
    <message>
        <source>Warm-up steps</source>
        <translation>预热步数</translation>
    </message>
    <message>
        <source>Measured steps</source>
        <translation>测量步数</translation>
    </message>
    <message>
        <source>Trial timeout</source>
        <translation>试验超时</translation>
    </message>
    <message>
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <source>Plan every candidate now: the table shows what would run and what the planner prunes, before anything is launched.</source>
        <translation>现在规划每个候选：在启动任何运行之前，表格显示哪些会运行、哪些会被规划器剪除。</translation>
    </message>
    <message>
        <source>▶  Start sweep</source>
        <translation>▶  开始扫描</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop the sweep; the trial in flight is ended and runs again on Resume.</source>
        <translation>停止扫描；进行中的试验会被结束，并在恢复时重新运行。</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>No sweep in this store yet</source>
        <translation>此存储中还没有扫描</translation>
    </message>
    <message>
        <source>Each finished trial: tokens/s against peak memory per rank. The staircase is the Pareto frontier; double-click a point to open its run.</source>
        <translation>每个完成的试验：词元/秒对每进程峰值内存。阶梯线是帕累托前沿；双击某点可打开其运行。</translation>
    </message>
    <message>
        <source>Open in Run view</source>
        <translation>在“运行”视图中打开</translation>
    </message>
    <message>
        <source>Use this config</source>
        <translation>使用此配置</translation>
    </message>
    <message>
        <source>Load the trial&apos;s config into Setup</source>
        <translation>把该试验的配置载入“设置”</translation>
    </message>
    <message>
        <source>Base: the Setup config (%1). Each axis below overrides one key.</source>
        <translation>基础：“设置”中的配置（%1）。下面每条轴覆盖一个键。</translation>
    </message>
    <message>
        <source>unsaved</source>
        <translation>未保存</translation>
    </message>
    <message>
        <source>the Setup config is not a JSON object: fix it in Setup first</source>
        <translation>“设置”中的配置不是 JSON 对象：请先在“设置”中修正</translation>
    </message>
    <message>
        <source>axes row %1: no axis name for the values %2</source>
        <translation>轴第 %1 行：取值 %2 没有轴名</translation>
    </message>
    <message>
        <source>axes row %1 (%2): the values must be JSON separated by commas (strings in quotes), got &apos;%3&apos;</source>
        <translation>轴第 %1 行（%2）：取值必须是用逗号分隔的 JSON（字符串加引号），实际为“%3”</translation>
    </message>
    <message>
        <source>axes row %1: the axis %2 appears twice</source>
        <translation>轴第 %1 行：轴 %2 出现了两次</translation>
    </message>
    <message>
        <source>Preview of %1 candidates: %2 fit and would run, %3 pruned by the planner (forecast above the capacity), %4 invalid. Nothing has run.</source>
        <translation>%1 个候选的预览：%2 个放得下并将运行，%3 个被规划器剪除（预测超出容量），%4 个无效。尚未运行任何试验。</translation>
    </message>
    <message>
        <source> Guided: at most %1 run; it stops raising the micro-batch where throughput stops rising.</source>
        <translation> 引导式：最多运行 %1 个；吞吐量不再上升时就停止增大微批次。</translation>
    </message>
    <message>
        <source>zerolab-sweep ended (exit %1)%2</source>
        <translation>zerolab-sweep 已结束（退出码 %1）%2</translation>
    </message>
    <message>
        <source>cannot start %1: %2</source>
        <translation>无法启动 %1：%2</translation>
    </message>
    <message>
        <source>no run store is open</source>
        <translation>没有打开运行存储</translation>
    </message>
    <message>
        <source>a sweep is already running: trials share the machine, one at a time</source>
        <translation>已有扫描在运行：试验共享本机，一次一个</translation>
    </message>
    <message>
        <source>cannot create %1</source>
        <translation>无法创建 %1</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>pick a stored sweep to resume</source>
        <translation>请选择一个已存储的扫描来恢复</translation>
    </message>
    <message>
        <source>a sweep is already running</source>
        <translation>已有扫描在运行</translation>
    </message>
    <message>
        <source>#%1 %2 · %3</source>
        <translation>#%1 %2 · %3</translation>
    </message>
    <message>
        <source>%1 · %2 candidates: %3 finished, %4 failed or timed out, %5 pruned by the planner, %6 to run</source>
        <translation>%1 · %2 个候选：%3 个已完成，%4 个失败或超时，%5 个被规划器剪除，%6 个待运行</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Phase</source>
        <translation>环节</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Forecast / rank</source>
        <translation>预测 / 进程</translation>
    </message>
    <message>
        <source>Tokens/s</source>
        <translation>词元/秒</translation>
    </message>
    <message>
        <source>± spread</source>
        <translation>± 离散</translation>
    </message>
    <message>
        <source>Exposed comm (ms)</source>
        <translation>暴露的通信 (ms)</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>capacity %1 per rank</source>
        <translation>每进程容量 %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;No trial finished&lt;/b&gt;: no best config (the reasons are in the table).</source>
        <translation>&lt;b&gt;没有试验完成&lt;/b&gt;：没有最佳配置（原因见表格）。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Best: trial %1&lt;/b&gt; (%2): %3 tokens/s ± %4</source>
        <translation>&lt;b&gt;最佳：试验 %1&lt;/b&gt;（%2）：%3 tokens/s ± %4</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:%1&apos;&gt;&lt;b&gt;The winner is unknown&lt;/b&gt;&lt;/span&gt;: its %2 runs measured %3 to %4 tokens/s, further apart than their spread (± %5).</source>
        <translation>&lt;span style=&apos;color:%1&apos;&gt;&lt;b&gt;胜者未知&lt;/b&gt;&lt;/span&gt;：它的 %2 次运行测得 %3 到 %4 tokens/s，相差超出各自的波动（± %5）。</translation>
    </message>
    <message>
        <source>Runner-up trial %1: margin %2 vs noise %3 tokens/s: within the noise, not a clear win.</source>
        <translation>第二名试验 %1：差距 %2，噪声 %3 tokens/s：在噪声之内，不算明确胜出。</translation>
    </message>
    <message>
        <source>Runner-up trial %1: margin %2 vs noise %3 tokens/s: a clear win.</source>
        <translation>第二名试验 %1：差距 %2，噪声 %3 tokens/s：明确胜出。</translation>
    </message>
    <message>
        <source>Best config: &lt;code&gt;%1&lt;/code&gt;</source>
        <translation>最佳配置：&lt;code&gt;%1&lt;/code&gt;</translation>
    </message>
    <message>
        <source>Best config (not written: the sweep was not finished by zerolab-sweep run or resume): &lt;code&gt;%1&lt;/code&gt;</source>
        <translation>最佳配置（未写出：该扫描不是由 zerolab-sweep run 或 resume 完成的）：&lt;code&gt;%1&lt;/code&gt;</translation>
    </message>
    <message>
        <source>Run it with: &lt;code&gt;%1&lt;/code&gt;</source>
        <translation>运行命令：&lt;code&gt;%1&lt;/code&gt;</translation>
    </message>
    <message>
        <source>Threads / rank</source>
        <translation>线程 / 进程</translation>
    </message>
    <message>
        <source>Peak RSS / rank</source>
        <translation>RSS 峰值 / 进程</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>Step time on</source>
        <translation>步时间基于</translation>
    </message>
    <message>
        <source>Forecast step</source>
        <translation>预测步时间</translation>
    </message>
    <message>
        <source>The step-time model&apos;s step per rank for the trial&apos;s config on the profile chosen below (docs/planner.md, Step time)</source>
        <translation>步时间模型在下方所选配置档上对该试验配置的每进程步时间（docs/planner.md，Step time）</translation>
    </message>
    <message>
        <source>Order by forecast tokens/s</source>
        <translation>按预测 tokens/s 排序</translation>
    </message>
    <message>
        <source>Sort the trials by the step-time model&apos;s tokens/s on the chosen profile, fastest first: what to run first, before measuring. Time per step would rank the smallest micro-batch first; tokens/s compares the work done. Trials that do not fit (pruned, out of memory, invalid) come last.</source>
        <translation>按步时间模型在所选配置文件上预测的 tokens/s 对试验排序，最快的在前：测量之前先跑哪个。按每步时间排序会把最小的微批次排在最前；tokens/s 比较的是完成的工作量。放不下的试验（被剪枝、显存不足、无效）排在最后。</translation>
    </message>
    <message>
        <source>Forecast tokens/s</source>
        <translation>预测 tokens/s</translation>
    </message>
    <message>
        <source>The step-time model&apos;s tokens/s (global batch tokens / forecast step) on the profile chosen below; trials that do not fit sort last</source>
        <translation>步时间模型在下方所选配置文件上的 tokens/s（全局批次的 token 数 / 预测步时间）；放不下的试验排在最后</translation>
    </message>
</context>
<context>
    <name>zerolab::ZeroPPTrafficCard</name>
    <message>
        <source>ZeRO %1</source>
        <translation>ZeRO %1</translation>
    </message>
    <message>
        <source>ZeRO++ (all three)</source>
        <translation>ZeRO++（三者全开）</translation>
    </message>
    <message>
        <source>ZeRO 3 + %1</source>
        <translation>ZeRO 3 + %1</translation>
    </message>
    <message>
        <source>ZeRO++: bytes a GPU sends across hosts</source>
        <translation>ZeRO++：一个 GPU 跨主机发送的字节数</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Hosts</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>No plan: %1</source>
        <translation>无法规划：%1</translation>
    </message>
    <message>
        <source>GPUs a host</source>
        <translation>每台主机 GPU 数</translation>
    </message>
    <message>
        <source>hpZ&apos;s group: a host&apos;s GPUs</source>
        <translation>hpZ 的组：一台主机上的 GPU</translation>
    </message>
    <message>
        <source>per GPU per step: N = %1 × %2 = %3 GPUs, bf16</source>
        <translation>每个 GPU 每步：N = %1 × %2 = %3 个 GPU，bf16</translation>
    </message>
    <message>
        <source>No link between hosts: nothing crosses one.</source>
        <translation>主机之间没有链路：没有流量跨主机。</translation>
    </message>
    <message>
        <source>ZeRO++: Wang et al. 2023, arXiv:2306.10209. Every bar is the planner&apos;s traffic by link class, as zerolab-plan --explain prints it for a config with these keys.</source>
        <translation>ZeRO++：Wang et al. 2023，arXiv:2306.10209。每根柱都是规划器按链路类别计算的通信量，与 zerolab-plan --explain 对带这些键的配置打印的一致。</translation>
    </message>
    <message>
        <source>The paper: 3M → 0.75M across nodes (0.25×), M the model at 16 bits. The planner: %1 → %2 (%3×).</source>
        <translation>论文：跨节点 3M → 0.75M（0.25×），M 为 16 位模型。规划器：%1 → %2（%3×）。</translation>
    </message>
    <message>
        <source>Across hosts (%1), × plain stage 3</source>
        <translation>跨主机（%1），× 阶段 3</translation>
    </message>
    <message>
        <source>Within a host (%1)</source>
        <translation>主机内（%1）</translation>
    </message>
</context>
</TS>
