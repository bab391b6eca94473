/* Unit tests for lib/pylex, lib/linttree and lib/lint: the tokenizer on
 * every kind of string and layout, the statement tree, each rule on a
 * minimal positive and its clean counterpart, suppression comments, and
 * hostile input (binary, a 10 MB line, deep nesting, unterminated strings). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/lint.h"
#include "lib/linttree.h"
#include "lib/pylex.h"

static size_t count_kind(const struct pylex *lx, enum pytok_kind k)
{
    size_t n = 0;
    for (size_t i = 0; i < lx->ntoks; i++) n += lx->toks[i].kind == k;
    return n;
}

/* Kinds of all tokens as letters: N name, # number, S string, O op, L
 * newline, > indent, < dedent, C comment, E error, $ end. */
static void kinds(const char *src, char *out, size_t size)
{
    static const char letter[] = "N#SOL><CE$";
    struct pylex lx;
    assert_int_equal(pylex_run(&lx, src, strlen(src), NULL), 0);
    size_t n = 0;
    for (size_t i = 0; i < lx.ntoks && n + 1 < size; i++) out[n++] = letter[lx.toks[i].kind];
    out[n] = '\0';
    pylex_release(&lx);
}

static void test_strings(void **state)
{
    (void)state;
    char k[128];
    kinds("x = 'a' \"b\" '''c\n'd'\n''' r'\\'' b\"\\x00\" rb'x' Rb\"y\"\n", k, sizeof k);
    assert_string_equal(k, "NOSSSSSSSL$");
    kinds("s = f\"{x!r:>{width}} {'a' + \"b\"} {{}} {d['k']}\"\n", k, sizeof k);
    assert_string_equal(k, "NOSL$");
    kinds("s = f'{f\"{f'{x}'}\"}'\n", k, sizeof k); /* PEP 701 nesting */
    assert_string_equal(k, "NOSL$");
    kinds("s = f'''{\nx\n}''' + f\"\\N{DASH} {y:%H:%M}\"\n", k, sizeof k);
    assert_string_equal(k, "NOSOSL$");
    kinds("u'x' fr'{a}\\d' t\"{b}\"\n", k, sizeof k);
    assert_string_equal(k, "SSSL$");
}

static void test_layout(void **state)
{
    (void)state;
    char k[128];
    /* brackets join lines; a backslash continues; comments and blank lines
     * change no indentation */
    kinds("@dec(1)\ndef f(a,\n      b):\n    # c\n\n    return a + \\\n        b\nx\n", k, sizeof k);
    assert_string_equal(k, "ONO#OLNNONONOOLC>NNONL<NL$");
    kinds("if x:\n\tif y:\n\t\tz\nw\n", k, sizeof k);
    assert_string_equal(k, "NNOL>NNOL>NL<<NL$");
    struct pylex lx;
    const char *src = "a = 1\nb = 'x\nc = \"\"\"never closed\n";
    assert_int_equal(pylex_run(&lx, src, strlen(src), NULL), 0);
    assert_int_equal(count_kind(&lx, PYT_ERROR), 2);
    assert_int_equal(lx.toks[lx.ntoks - 1].kind, PYT_END);
    pylex_release(&lx);
}

static void test_positions(void **state)
{
    (void)state;
    struct pylex lx;
    const char *src = "x = '''a\nb'''; y = 2\n  # c\nz";
    assert_int_equal(pylex_run(&lx, src, strlen(src), NULL), 0);
    /* y is on line 2, column 7 */
    size_t i = 0;
    while (!pylex_is(&lx, i, "y")) i++;
    assert_int_equal(lx.toks[i].line, 2);
    assert_int_equal(lx.toks[i].col, 7);
    while (!pylex_is(&lx, i, "z")) i++;
    assert_int_equal(lx.toks[i].line, 4);
    assert_int_equal(lx.toks[i].col, 1);
    pylex_release(&lx);
}

static void test_tree(void **state)
{
    (void)state;
    const char *src = "import torch\n"
                      "@torch.no_grad()\n"
                      "def ev(m, xs):\n"
                      "    for x in xs: y = m(x); z = 1\n"
                      "    with torch.enable_grad():\n"
                      "        w = m(x)\n"
                      "def tr(m):\n"
                      "    while True:\n"
                      "        try:\n"
                      "            m()\n"
                      "        except E:\n"
                      "            if i % 10 == 0:\n"
                      "                pass\n";
    struct pylex lx;
    struct lint_tree t;
    assert_int_equal(pylex_run(&lx, src, strlen(src), NULL), 0);
    assert_int_equal(linttree_build(&t, &lx, NULL), 0);
    enum lint_stmt_kind want[] = {LST_SIMPLE, LST_DECORATOR, LST_DEF, LST_FOR, LST_SIMPLE,
                                  LST_SIMPLE, LST_WITH, LST_SIMPLE, LST_DEF, LST_WHILE,
                                  LST_TRY, LST_SIMPLE, LST_EXCEPT, LST_IF, LST_SIMPLE};
    assert_int_equal(t.n, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < t.n; i++) assert_int_equal(t.stmts[i].kind, want[i]);
    assert_int_equal(t.stmts[4].loop, 3); /* y = m(x) inside the inline for */
    assert_int_equal(t.stmts[4].func, 2);
    assert_true(t.stmts[4].no_grad);      /* decorated def */
    assert_false(t.stmts[7].no_grad);     /* enable_grad turns it back on */
    assert_int_equal(t.stmts[2].body_end, 8);
    assert_true(t.stmts[14].in_except);
    assert_true(t.stmts[14].periodic);
    assert_int_equal(t.stmts[14].loop, 9);
    assert_false(t.stmts[11].in_except);
    linttree_release(&t);
    pylex_release(&lx);
}

/* Lint src in lang; returns the rule ids found, "a,b,..." in order. */
static const char *lint_ids_in(enum lint_lang lang, const char *src, int torch_major)
{
    static char out[512];
    struct lint_report r = {0};
    struct lint_opts o = {.torch_major = torch_major};
    struct oomlab_err err;
    assert_int_equal(lint_source(lang, src, strlen(src), &o, &r, &err), 0);
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < r.n && used < sizeof out; i++)
        used += (size_t)snprintf(out + used, sizeof out - used, "%s%s", i ? "," : "",
                                 lint_rules[r.v[i].rule].id);
    lint_report_release(&r);
    return out;
}

static const char *lint_ids(const char *src, int torch_major)
{
    return lint_ids_in(LINT_PYTHON, src, torch_major);
}

struct rule_case {
    const char *bad, *clean, *want;
};

static const struct rule_case rule_cases[] = {
    /* an epoch's mean of .item() sums is a float (dietmarja/LLM-Elements
     * fine_tuning/fine_tuning_03.ipynb: training_losses.append(avg_train_loss)
     * was flagged); the mean of a tensor sum is not */
    {"for e in r:\n    total_loss = 0\n    for x in d:\n        loss = crit(model(x), y)\n        loss.backward()\n"
     "        opt.step()\n        opt.zero_grad(set_to_none=True)\n        total_loss += loss\n"
     "    avg_loss = total_loss / len(d)\n    losses.append(avg_loss)\n",
     "for e in r:\n    total_loss = 0\n    for x in d:\n        loss = crit(model(x), y)\n        loss.backward()\n"
     "        opt.step()\n        opt.zero_grad(set_to_none=True)\n        total_loss += loss.item()\n"
     "    avg_loss = total_loss / len(d)\n    losses.append(avg_loss)\n",
     "loss-accumulated"},
    {"for x in d:\n    l = crit(model(x), y)\n    l.backward()\n    opt.step()\n"
     "    opt.zero_grad(set_to_none=True)\n    total_loss += l + aux_loss\n",
     "for x in d:\n    l = crit(model(x), y)\n    l.backward()\n    opt.step()\n"
     "    opt.zero_grad(set_to_none=True)\n    total_loss += l.item() + aux_loss.item()\n",
     "loss-accumulated"},
    {"import torch\ndef validate(model, xs):\n    return [model(x) for x in xs]\n",
     "import torch\n@torch.inference_mode()\ndef validate(model, xs):\n    return [model(x) for x in xs]\n",
     "eval-without-no-grad"},
    /* a helper called only from Lightning's validation_step/test_step, or
     * only under no_grad, runs without gradients as they do
     * (Lightning-AI/pytorch-lightning examples/pytorch/domain_templates/imagenet.py
     * eval_step); one also called with gradients on is still reported */
    {"import torch\nclass M:\n    def eval_step(self, b):\n        return self.model(b)\n"
     "    def validation_step(self, b, i):\n        return self.eval_step(b)\n"
     "    def other(self, b):\n        return self.eval_step(b)\n",
     "import torch\nclass M:\n    def eval_step(self, b):\n        return self.model(b)\n"
     "    def validation_step(self, b, i):\n        return self.eval_step(b)\n"
     "    def test_step(self, b, i):\n        with torch.no_grad():\n            return self.eval_step(b)\n",
     "eval-without-no-grad"},
    /* left26: self.eval_step( in class B is B's method, not A's: A's
     * eval_step is still called only from validation_step */
    {"import torch\nclass A:\n    def eval_step(self, b):\n        return self.model(b)\n"
     "    def validation_step(self, b, i):\n        return self.eval_step(b)\n"
     "class B:\n    def eval_step(self, b):\n        return self.model(b)\n"
     "    def other(self, b):\n        return self.eval_step(b)\n",
     "import torch\nclass A:\n    def eval_step(self, b):\n        return self.model(b)\n"
     "    def validation_step(self, b, i):\n        return self.eval_step(b)\n"
     "class B:\n    @torch.no_grad()\n    def eval_step(self, b):\n        return self.model(b)\n"
     "    def other(self, b):\n        return self.eval_step(b)\n",
     "eval-without-no-grad"},
    /* a test_* function that trains through a helper of the file is
     * training, not evaluation (huggingface/accelerate
     * src/accelerate/test_utils/scripts/test_sync.py step_model) */
    {"import torch\ndef step_model(model, x):\n    return model(x)\n"
     "def test_sync(model, x):\n    for i in range(3):\n        step_model(model, x)\n",
     "import torch\ndef step_model(model, x):\n    model(x).backward()\n"
     "def test_sync(model, x):\n    for i in range(3):\n        step_model(model, x)\n",
     "eval-without-no-grad"},
    /* several forwards kept for one backward each later: the accumulator's
     * elements are backward()-ed (huggingface/accelerate test_sync.py
     * test_distributed_sync_multiple_fwd); an element read for a log is not */
    {"import torch\nfor i in r:\n    loss = crit(model(x), y)\n    losses.append(loss)\n"
     "for i in r:\n    loss = losses[i]\n    print(loss)\n",
     "import torch\nfor i in r:\n    loss = crit(model(x), y)\n    losses.append(loss)\n"
     "for i in r:\n    loss = losses[i]\n    loss.backward()\n",
     "loss-accumulated"},
    {"import torch\nfor i in r:\n    loss = crit(model(x), y)\n    losses.append(loss)\n"
     "for l in losses:\n    print(l)\nl.backward()\n",
     "import torch\nfor i in r:\n    loss = crit(model(x), y)\n    losses.append(loss)\n"
     "for l in losses:\n    l.backward()\n",
     "loss-accumulated"},
    /* left26: a name rebound to a new value is no element from there on */
    {"import torch\nfor i in r:\n    loss = crit(model(x), y)\n    losses.append(loss)\n"
     "loss = losses[0]\nprint(loss)\nloss = crit(model(x), y)\nloss.backward()\n",
     "import torch\nfor i in r:\n    loss = crit(model(x), y)\n    losses.append(loss)\n"
     "loss = losses[0]\nprint(loss)\nloss = loss * w\nloss.backward()\n",
     "loss-accumulated"},
    {"m.eval()\nwith torch.no_grad():\n    m(x)\nfor b in d:\n    m(b).backward()\n",
     "m.eval()\nwith torch.no_grad():\n    m(x)\nm.train()\nfor b in d:\n    m(b).backward()\n",
     "eval-never-train"},
    {"device = 'cuda'\nfor x in d:\n    with torch.no_grad():\n        out = model(x)\n"
     "    outs.append(out)\n",
     "device = 'cuda'\nfor x in d:\n    with torch.no_grad():\n        out = model(x)\n"
     "    outs.append(out.cpu())\n",
     "outputs-on-gpu"},
    {"while 1:\n    loss = f(x)\n    loss.backward(retain_graph=True)\n",
     "loss = f(x)\nwhile 1:\n    loss.backward(retain_graph=True)\n", "retain-graph-in-loop"},
    {"opt.zero_grad()\n", "opt.zero_grad(set_to_none=True)\n", "zero-grad-not-none"},
    {"for b in d:\n    model(b).backward()\n    optimizer.step()\n",
     "for b in d:\n    model(b).backward()\n    optimizer.step()\n"
     "    optimizer.zero_grad(set_to_none=True)\n",
     "missing-zero-grad"},
    {"m.cuda()\ntorch.save(m.state_dict(), p)\n",
     "m.cuda()\ntorch.save({k: v.cpu() for k, v in m.state_dict().items()}, p)\n",
     "save-gpu-tensors"},
    {"sd = torch.load(p)\n", "sd = torch.load(p, map_location='cpu')\n", "load-without-map-location"},
    {"for b in d:\n    model(b)\n    torch.cuda.empty_cache()\n",
     "for b in d:\n    try:\n        model(b)\n    except RuntimeError:\n"
     "        torch.cuda.empty_cache()\n",
     "empty-cache-in-loop"},
    /* a model run through its decode() half is a model call; a tokenizer's is not */
    {"for b in d:\n    im = vae.decode(b)\n    torch.cuda.empty_cache()\n",
     "for b in d:\n    s = tok.decode(b)\n    torch.cuda.empty_cache()\n",
     "empty-cache-in-loop"},
    /* a loop inside that saves images makes no epoch loop; one that runs the model does */
    {"for b in d:\n    ims = model(b)\n    torch.cuda.empty_cache()\n    for im in ims:\n        save(im)\n",
     "for e in r:\n    for b in d:\n        model(b)\n    torch.cuda.empty_cache()\n",
     "empty-cache-in-loop"},
    {"x = torch.ones(1).cuda()\nos.environ['PYTORCH_CUDA_ALLOC_CONF'] = 'a'\n",
     "os.environ['PYTORCH_CUDA_ALLOC_CONF'] = 'a'\nx = torch.ones(1).cuda()\n",
     "alloc-conf-after-cuda"},
    {"torch.no_grad()\n", "with torch.no_grad():\n    pass\n", "no-grad-not-entered"},
    {"for x in d:\n    x = x.cuda()\n    out = model(x)\n    out.sum().backward()\n"
     "    if i % 9 == 0:\n        validate(model, val_loader)\n",
     "for x in d:\n    x = x.cuda()\n    out = model(x)\n    out.sum().backward()\n"
     "    if i % 9 == 0:\n        del x, out\n        validate(model, val_loader)\n",
     "train-tensors-in-eval"},
};

static void test_rules(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof rule_cases / sizeof rule_cases[0]; i++) {
        assert_string_equal(lint_ids(rule_cases[i].bad, 0), rule_cases[i].want);
        assert_string_equal(lint_ids(rule_cases[i].clean, 0), "");
    }
    assert_string_equal(lint_ids("opt.zero_grad()\n", 2), "");
    /* a loss read off outputs made under no_grad has no graph
     * (huggingface/transformers:examples/pytorch/language-modeling/run_clm_no_trainer.py
     * @00661e38a9e1393472adae9ac71f777b74ccdcde: loss = outputs.loss, then
     * losses.append(...)); the same without no_grad is still reported */
    assert_string_equal(lint_ids("import torch\nfor b in d:\n    with torch.no_grad():\n"
                                 "        outputs = model(b)\n    loss = outputs.loss\n"
                                 "    losses.append(gather(loss.repeat(8)))\n", 0), "");
    assert_string_equal(lint_ids("import torch\nfor b in d:\n    outputs = model(b)\n    loss = outputs.loss\n"
                                 "    losses.append(gather(loss.repeat(8)))\n", 0), "loss-accumulated");
    /* a numpy network's nn.backward(X, Y) trains no tensor: a loss appended
     * in its loop is a float array, not a graph (a stranger's numpy-only
     * notebook was told its losses.append(loss) pinned GPU memory); with
     * torch in the file, or loss.backward(), it is a tensor again */
    static const char np_loop[] = "losses = []\nfor epoch in range(10):\n    out = nn.forward(X)\n"
                                  "    loss = cross_entropy(out, Y)\n    nn.backward(X, Y)\n"
                                  "    losses.append(loss)\n";
    assert_string_equal(lint_ids(np_loop, 0), "");
    char buf[512];
    snprintf(buf, sizeof buf, "import numpy as np\n%s", np_loop);
    assert_string_equal(lint_ids(buf, 0), "");
    snprintf(buf, sizeof buf, "import torch\n%s", np_loop);
    assert_string_equal(lint_ids(buf, 0), "loss-accumulated");
    assert_string_equal(lint_ids("for x in d:\n    loss = crit(model(x), y)\n    accelerator.backward(loss)\n"
                                 "    opt.step()\n    opt.zero_grad(set_to_none=True)\n    losses.append(loss)\n", 0), "loss-accumulated");
    assert_string_equal(lint_ids("for x in d:\n    loss = crit(model(x), y)\n    loss.backward(inputs=[w])\n"
                                 "    opt.step()\n    opt.zero_grad(set_to_none=True)\n    losses.append(loss)\n", 0), "loss-accumulated");
    /* a bracket never closed (code being edited) ends at the next line that
     * starts a statement no bracket can hold: the rest is still checked */
    assert_string_equal(lint_ids("x = f(\nimport torch\n"
                                 "for x in d:\n    l = crit(model(x), y)\n    l.backward()\n    opt.step()\n"
                                 "    opt.zero_grad(set_to_none=True)\n    total_loss += l + aux_loss\n", 0),
                        "loss-accumulated");
    /* a call that transforms or inspects a model does not run it
     * (huggingface/pytorch-image-models:validate.py@aa4b5850c1543fa488abf260f18390eda46cf85d:
     * model = reparameterize_model(model); accelerate's unwrap_model) */
    assert_string_equal(lint_ids("import torch\ndef validate(model, acc):\n"
                                 "    model = reparameterize_model(model)\n"
                                 "    return acc.unwrap_model(model), count_model(model)\n", 0), "");
    /* a project's own wrapper of inference_mode/no_grad, as a decorator or
     * a with (ultralytics/yolov5:val.py@5081342f04fb287fc2e5f2b5a4e06752b7937b1c
     * decorates run() with @smart_inference_mode()) */
    assert_string_equal(lint_ids("import torch\n@smart_inference_mode()\ndef validate(model, xs):\n"
                                 "    return [model(x) for x in xs]\n", 0), "");
    assert_string_equal(lint_ids("import torch\ndef validate(model, xs):\n"
                                 "    with maybe_no_grad(True):\n        return [model(x) for x in xs]\n", 0), "");
    /* not a model: a camelCase getter (cupshelpers' test()), a file that is
     * not torch code, a unit test */
    assert_string_equal(lint_ids("import torch\ndef test(f, makes):\n    for make in makes:\n"
                                 "        f.getInfoFromModel(make)\n", 0), "");
    assert_string_equal(lint_ids("def validate(model, xs):\n    return model(xs)\n", 0), "");
    assert_string_equal(lint_ids("import torch\nclass T:\n    def test_fwd(self):\n"
                                 "        self.model.eval()\n        self.model(x)\n", 0), "");
}

/* A model kept in a module-level constant (a serving app's MODEL, as
 * abhishekkrthakur/bert-sentiment app.py@4283d29 keeps it) is a model: its
 * call in a prediction function outside no_grad is reported. CamelCase
 * (a class: building one) and a constant that names a loader are not
 * model calls. Restated: the statements that matter, not the file. */
static void test_model_constants(void **state)
{
    (void)state;
    const char *head = "import torch\nMODEL = None\nDEVICE = 'cuda'\n"
                       "def sentence_prediction(ids):\n    ids = ids.to(DEVICE)\n";
    char src[512];
    snprintf(src, sizeof src, "%s    out = MODEL(ids=ids)\n    return out.cpu().numpy()\n", head);
    assert_string_equal(lint_ids(src, 0), "eval-without-no-grad");
    snprintf(src, sizeof src, "%s    with torch.no_grad():\n        out = MODEL(ids=ids)\n"
             "    return out.cpu().numpy()\n", head);
    assert_string_equal(lint_ids(src, 0), "");
    snprintf(src, sizeof src, "%s    m = Model(ids)\n    n = LOAD_MODEL(ids)\n    return m, n\n", head);
    assert_string_equal(lint_ids(src, 0), "");
    snprintf(src, sizeof src, "%s    return NET(ids)\n", head);
    assert_string_equal(lint_ids(src, 0), "eval-without-no-grad");
}

/* Every variable the allocator reads once counts, not only
 * PYTORCH_CUDA_ALLOC_CONF: pytorch/pytorch#92074 set
 * PYTORCH_NO_CUDA_MEMORY_CACHING with os.environ after a .to("cuda") and
 * found it "doesn't work"; torch 2.9 renames the setting PYTORCH_ALLOC_CONF
 * (pytorch/torchtitan#1577, p-e-w/heretic#32 quote the deprecation). In
 * launch scripts an export counts for its own variable only. */
static void test_alloc_vars(void **state)
{
    (void)state;
    assert_string_equal(lint_ids("import os, torch\nb = torch.rand(2).to('cuda')\n"
                                 "os.environ['PYTORCH_NO_CUDA_MEMORY_CACHING'] = '1'\n", 0),
                        "alloc-conf-after-cuda");
    assert_string_equal(lint_ids("import os, torch\nb = torch.rand(2).to('cuda')\n"
                                 "os.environ.setdefault(\"PYTORCH_ALLOC_CONF\", 'expandable_segments:True')\n", 0),
                        "alloc-conf-after-cuda");
    assert_string_equal(lint_ids("import os, torch\nos.environ['PYTORCH_ALLOC_CONF'] = 'x'\n"
                                 "b = torch.rand(2).to('cuda')\n", 0), "");
    /* a longer name that only contains one is not one */
    assert_string_equal(lint_ids("import os, torch\nb = torch.rand(2).to('cuda')\n"
                                 "os.environ['MY_PYTORCH_ALLOC_CONF_X'] = '1'\n", 0), "");
    /* backend: is read at import (pytorch/pytorch#104801): after `import torch` is too late
     * for it, not for the other keys */
    assert_string_equal(lint_ids("import torch\nimport os\nos.environ[\"PYTORCH_CUDA_ALLOC_CONF\"] = "
                                 "\"backend:cudaMallocAsync\"\nx = torch.randn(1).cuda()\n", 0),
                        "alloc-conf-after-cuda");
    assert_string_equal(lint_ids("import os\nos.environ[\"PYTORCH_CUDA_ALLOC_CONF\"] = "
                                 "\"backend:cudaMallocAsync\"\nimport torch\nx = torch.randn(1).cuda()\n", 0), "");
    assert_string_equal(lint_ids("import torch\nimport os\nos.environ[\"PYTORCH_CUDA_ALLOC_CONF\"] = "
                                 "\"expandable_segments:True\"\nx = torch.randn(1).cuda()\n", 0), "");
    assert_string_equal(lint_ids_in(LINT_SHELL, "PYTORCH_ALLOC_CONF=expandable_segments:True\n"
                                    "torchrun train.py\n", 0), "alloc-conf-not-exported");
    assert_string_equal(lint_ids_in(LINT_SHELL, "PYTORCH_CUDA_ALLOC_CONF=a\nPYTORCH_ALLOC_CONF=a\n"
                                    "export PYTORCH_ALLOC_CONF\npython t.py\n", 0), "alloc-conf-not-exported");
    assert_string_equal(lint_ids_in(LINT_SHELL, "python t.py\nexport PYTORCH_HIP_ALLOC_CONF=a\n", 0),
                        "alloc-conf-after-launch");
    assert_string_equal(lint_ids_in(LINT_DOCKER, "FROM x\nRUN export PYTORCH_ALLOC_CONF=a\n", 0),
                        "alloc-conf-docker-run");
    assert_string_equal(lint_ids_in(LINT_DOCKER, "FROM x\nENV PYTORCH_ALLOC_CONF=a\n", 0), "");
}

/* A helper module that never says cuda (mrdbourke/pytorch-deep-learning
 * going_modular/utils.py@baa27b6: save_model(model, ...) saves
 * model.state_dict()) saves what the training script beside it put on the
 * GPU: the finding waits for the caller, who knows the neighbours. */
static void test_project_gpu(void **state)
{
    (void)state;
    const char *src = "import torch\ndef save_model(model, path):\n"
                      "    torch.save(obj=model.state_dict(), f=path)\n";
    struct lint_report r = {0};
    struct lint_opts o = {0};
    assert_int_equal(lint_source(LINT_PYTHON, src, strlen(src), &o, &r, NULL), 0);
    assert_int_equal(r.n, 0);
    assert_true(r.asks_project_gpu);
    lint_report_release(&r);
    r = (struct lint_report){0};
    o.project_gpu = 1;
    assert_int_equal(lint_source(LINT_PYTHON, src, strlen(src), &o, &r, NULL), 0);
    assert_int_equal(r.n, 1);
    assert_string_equal(lint_rules[r.v[0].rule].id, "save-gpu-tensors");
    lint_report_release(&r);
    /* a file that says cuda needs nobody: found, nothing asked */
    r = (struct lint_report){0};
    o.project_gpu = 0;
    const char *gpu = "import torch\nm.cuda()\ntorch.save(m.state_dict(), p)\n";
    assert_int_equal(lint_source(LINT_PYTHON, gpu, strlen(gpu), &o, &r, NULL), 0);
    assert_int_equal(r.n, 1);
    assert_false(r.asks_project_gpu);
    lint_report_release(&r);
}

/* Sampling code named for what it writes, and models named for what the
 * file does with them (restated from eriklindernoren/PyTorch-GAN@36d3c77:
 * aae.py's sample_image() runs decoder(z) for save_image; cyclegan.py's
 * sample_images() runs G_AB, a name only its .parameters() call makes a
 * model). */
static void test_sampling_functions(void **state)
{
    (void)state;
    assert_string_equal(lint_ids("import torch\ndef sample_image(n_row, batches_done):\n"
                                 "    z = Tensor(np.random.normal(0, 1, (n_row ** 2, 8)))\n"
                                 "    gen_imgs = decoder(z)\n"
                                 "    save_image(gen_imgs.data, 'images/%d.png' % batches_done)\n", 0),
                        "eval-without-no-grad");
    assert_string_equal(lint_ids("import torch\ndef sample_image(n_row, batches_done):\n"
                                 "    with torch.no_grad():\n        gen_imgs = decoder(z)\n"
                                 "    save_image(gen_imgs.data, 'images/%d.png' % batches_done)\n", 0), "");
    /* a step that trains and also saves a picture is training */
    assert_string_equal(lint_ids("import torch\ndef step(x):\n    out = decoder(x)\n"
                                 "    out.sum().backward()\n    save_image(out.data, 'a.png')\n", 0), "");
    const char *gan = "import torch, itertools\n"
                      "optimizer_G = torch.optim.Adam(itertools.chain(G_AB.parameters(), G_BA.parameters()))\n"
                      "def sample_images(batches_done):\n    G_AB.eval()\n    fake_B = G_AB(real_A)\n"
                      "    return fake_B.cpu()\n"
                      "for x in loader:\n    G_AB.train()\n    G_AB(x).sum().backward()\n    optimizer_G.step()\n"
                      "    optimizer_G.zero_grad(set_to_none=True)\n";
    assert_string_equal(lint_ids(gan, 0), "eval-without-no-grad");
    /* G_AB without its .parameters() is no model this file shows */
    assert_string_equal(lint_ids("import torch\ndef sample_images(batches_done):\n"
                                 "    fake_B = G_AB(real_A)\n    return fake_B\n", 0), "");
}

/* nanoGPT's shape (karpathy/nanoGPT train.py@3adf61e, restated): the
 * evaluation is a helper of the file, called with no arguments, at the top
 * of the outer loop, while the last micro-step's logits are still bound. */
static void test_eval_through_helper(void **state)
{
    (void)state;
    const char *helper = "import torch\n@torch.no_grad()\ndef estimate_loss():\n    model.eval()\n"
                         "    out = model(X).mean().item()\n    model.train()\n    return out\n"
                         "def get_lr(it):\n    return 0.1\n";
    char src[1024];
    snprintf(src, sizeof src, "%swhile True:\n    if it %% 100 == 0:\n        losses = estimate_loss()\n"
             "    for micro_step in range(4):\n        logits, loss = model(X, Y)\n        loss.backward()\n"
             "    optimizer.step()\n    optimizer.zero_grad(set_to_none=True)\n", helper);
    assert_string_equal(lint_ids(src, 0), "train-tensors-in-eval");
    snprintf(src, sizeof src, "%swhile True:\n    if it %% 100 == 0:\n        losses = estimate_loss()\n"
             "    for micro_step in range(4):\n        logits, loss = model(X, Y)\n        loss.backward()\n"
             "    del logits\n    optimizer.step()\n    optimizer.zero_grad(set_to_none=True)\n", helper);
    assert_string_equal(lint_ids(src, 0), "");
    /* a helper that does not switch to eval mode is not evaluation */
    snprintf(src, sizeof src, "%swhile True:\n    lr = get_lr(it)\n"
             "    for micro_step in range(4):\n        logits, loss = model(X, Y)\n        loss.backward()\n"
             "    optimizer.step()\n    optimizer.zero_grad(set_to_none=True)\n", helper);
    assert_string_equal(lint_ids(src, 0), "");
}

static void test_train_tensors(void **state)
{
    (void)state;
    const char *loop = "for x in d:\n    out = model(x.cuda())\n    out.sum().backward()\n";
    char src[512];
    /* after the loop; on self; a question (is_valid) and x.eval() are no evaluation;
     * a name set to None is freed; a loss alone (a scalar) does not count */
    snprintf(src, sizeof src, "%sself.evaluate()\n", loop);
    assert_string_equal(lint_ids(src, 0), "train-tensors-in-eval");
    snprintf(src, sizeof src, "%sis_valid(model)\nmodel.eval()\neval('1')\nmodel.train()\n", loop);
    assert_string_equal(lint_ids(src, 0), "");
    snprintf(src, sizeof src, "%sout = None\nevaluate(model, loader)\n", loop);
    assert_string_equal(lint_ids(src, 0), "");
    assert_string_equal(lint_ids("for x in d:\n    loss = crit(model(x), y)\n    loss.backward()\n"
                                 "evaluate(model, loader)\n", 0), "");
    /* eval-never-train's second form: evaluation inside the step loop, train() only before it */
    assert_string_equal(lint_ids("def ev():\n    model.eval()\ndef fit():\n    model.train()\n"
                                 "    for x in d:\n        model(x).backward()\n        ev()\n", 0),
                        "eval-never-train");
    assert_string_equal(lint_ids("def ev():\n    model.eval()\ndef fit():\n    for x in d:\n"
                                 "        model(x).backward()\n        ev()\n        model.train()\n", 0),
                        "");
    /* a chained x.to(d).train() switches x back (pytorch/examples fast_neural_style) */
    assert_string_equal(lint_ids("for x in d:\n    net(x).backward()\n    if i % 9 == 0:\n"
                                 "        net.eval()\n        net.to(dev).train()\n", 0), "");
    /* eval() of a model whose parameters no optimizer gets (a frozen feature extractor,
     * PyTorch-GAN esrgan/srgan) is neither never-train nor the start of evaluation */
    assert_string_equal(lint_ids("opt = Adam(gen.parameters())\nfeat.eval()\nfor x in d:\n"
                                 "    loss = crit(feat(gen(x)), y)\n    loss.backward()\n"
                                 "    opt.step()\n    opt.zero_grad(set_to_none=True)\n", 0), "");
    assert_string_equal(lint_ids("opt = Adam(gen.parameters())\ngen.eval()\nfor x in d:\n"
                                 "    gen(x).backward()\n", 0), "eval-never-train");
    /* eval() after the scope's training loop, nothing trained after it: training has finished */
    assert_string_equal(lint_ids("for x in d:\n    model(x).backward()\nmodel.eval()\n"
                                 "with torch.no_grad():\n    model(x)\n", 0), "");
    /* a training step after eval() is training in eval mode (eval-never-train), not
     * evaluation: no_grad is not its fix */
    assert_string_equal(lint_ids("for x in d:\n    model(x).backward()\nmodel.eval()\n"
                                 "for x in d:\n    model(x).backward()\n", 0),
                        "eval-never-train");
    /* gradients zeroed through a helper of the same file (pytorch-tutorial's reset_grad()) */
    assert_string_equal(lint_ids("def reset_grad():\n    opt.zero_grad(set_to_none=True)\n"
                                 "for x in d:\n    reset_grad()\n    model(x).backward()\n    opt.step()\n", 0), "");
    assert_string_equal(lint_ids("def log():\n    print(1)\n"
                                 "for x in d:\n    log()\n    model(x).backward()\n    opt.step()\n", 0),
                        "missing-zero-grad");
    /* torch.save of a state dict after the model went to the CPU (x.eval().cpu()) */
    assert_string_equal(lint_ids("dev = 'cuda'\ndef f(net):\n    net.eval().cpu()\n"
                                 "    torch.save(net.state_dict(), p)\n", 0), "");
    assert_string_equal(lint_ids("dev = 'cuda'\ndef f(net):\n    net.cpu()\n    net.to(dev)\n"
                                 "    torch.save(net.state_dict(), p)\n", 0), "save-gpu-tensors");
    /* no backward in the loop: not a training step */
    assert_string_equal(lint_ids("for x in d:\n    out = model(x)\nevaluate(model, loader)\n", 0), "");
    /* evaluation in another function does not see this one's names */
    assert_string_equal(lint_ids("def f():\n    for x in d:\n        out = model(x)\n"
                                 "        out.sum().backward()\n"
                                 "def g():\n    evaluate(model, loader)\n", 0), "");
}

static void test_torch_requirements(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int major;
    } cases[] = {
        {"torch>=2.1\n", 2},
        {"numpy\ntorch==1.13.1+cu117 ; python_version > '3'\n", 1},
        {"torch>=1.13,<3\n", 1},
        {"torch<2\n", 0},
        {"torch!=2.0.0\n", 0},
        {"torch\ntorchvision>=0.15\n", 0},
        {"torchvision==0.15.1\npytorch-lightning==2.0\ntorch-tb-profiler>=3\n", 0},
        {"# torch>=2.0\n", 0},
        {"dependencies = [\"torch>=2.2\", \"numpy\"]\n", 2},
        {"torch = \"^2.0\"\n", 2},
        {"torch = {version = \"~2.1\", source = \"pytorch\"}\n", 2},
        {"  - pytorch=1.12.1=py3.9_cuda11.6_cudnn8.3.2_0\n  - pytorch-cuda=11.6\n", 1},
        {"  - pytorch::pytorch>=2.1\n", 2},
        {"install_requires =\n    torch >= 2.0\n", 2},
        {"    install_requires=[\n        \"numpy>=1.17\",\n        \"torch>=2.0.0\",\n    ],\n", 2}, /* setup.py */
        {"import torch\nif torch_version >= 2:\n    pass\n", 0}, /* setup.py code, no requirement */
        {"--extra-index-url https://download.pytorch.org/whl/cu118\n", 0},
        {"torch @ https://download.pytorch.org/whl/cu118/torch-2.0.1%2Bcu118-cp310-linux_x86_64.whl\n", 0},
        {"pytorch=1.13\ntorch>=2.1\n", 1}, /* the oldest bound wins */
        {"torch~=", 0},
        {"torch==", 0},
        {"", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int got = lint_torch_major_of(cases[i].text, strlen(cases[i].text));
        if (got != cases[i].major) fail_msg("'%s': %d, want %d", cases[i].text, got, cases[i].major);
    }
}

static void test_suppression(void **state)
{
    (void)state;
    assert_string_equal(lint_ids("sd = torch.load(p)  # oomlab: ignore\n", 0), "");
    assert_string_equal(lint_ids("sd = torch.load(p)  # oomlab: ignore[load-without-map-location]\n", 0), "");
    assert_string_equal(lint_ids("sd = torch.load(p)  # oomlab: ignore[zero-grad-not-none]\n", 0),
                        "load-without-map-location");
    assert_string_equal(lint_ids("sd = torch.load(p); s = '# oomlab: ignore'\n", 0),
                        "load-without-map-location");
    assert_true(lint_comment_suppresses("# oomlab:ignore[a, b]", 21, "b"));
    assert_false(lint_comment_suppresses("# oomlab: ignored", 17, "b"));
    struct lint_report r = {0};
    const char *sh = "PYTORCH_CUDA_ALLOC_CONF=x  # oomlab: ignore[alloc-conf-not-exported]\n";
    assert_int_equal(lint_source(LINT_SHELL, sh, strlen(sh), NULL, &r, NULL), 0);
    assert_int_equal(r.n, 0);
    assert_int_equal(r.suppressed, 1);
    lint_report_release(&r);
}

static void test_languages(void **state)
{
    (void)state;
    assert_int_equal(lint_lang_of("a/train.py", "", 0), LINT_PYTHON);
    assert_int_equal(lint_lang_of("job.sbatch", "", 0), LINT_SHELL);
    assert_int_equal(lint_lang_of("x/Dockerfile.gpu", "", 0), LINT_DOCKER);
    /* the NAME.Dockerfile convention (sruckh_qwenimage.Dockerfile of tests/lint/heldout
     * was neither walked nor read as a Dockerfile) */
    assert_int_equal(lint_lang_of("x/cuda.Dockerfile", "", 0), LINT_DOCKER);
    assert_int_equal(lint_lang_of("x/.Dockerfile", "", 0), LINT_NONE);
    assert_int_equal(lint_lang_of("run", "#!/usr/bin/env bash\n", 20), LINT_SHELL);
    assert_int_equal(lint_lang_of("run", "#!/usr/bin/python3\n", 19), LINT_PYTHON);
    assert_int_equal(lint_lang_of("README", "hello", 5), LINT_NONE);
}

static void test_hostile(void **state)
{
    (void)state;
    struct lint_report r = {0};
    struct oomlab_err err;
    assert_int_equal(lint_source(LINT_PYTHON, "a\0b", 3, NULL, &r, &err), -1);
    assert_non_null(strstr(err.msg, "binary"));
    /* a 10 MB line of one name, then a call that must still be seen */
    size_t n = 10u << 20;
    char *big = malloc(n + 64);
    assert_non_null(big);
    memset(big, 'a', n);
    static const char tail[] = "\nsd = torch.load(p)\n";
    memcpy(big + n, tail, sizeof tail);
    assert_int_equal(lint_source(LINT_PYTHON, big, strlen(big), NULL, &r, &err), 0);
    assert_int_equal(r.n, 1);
    assert_int_equal(r.v[0].line, 2);
    lint_report_release(&r);
    /* 10 MB of '(' : more tokens than the cap, refused with a reason */
    memset(big, '(', n);
    big[n] = '\0';
    assert_int_equal(lint_source(LINT_PYTHON, big, n, NULL, &r, &err), -1);
    assert_non_null(strstr(err.msg, "tokens"));
    /* 1 MB of '(' nests without limit and reports nothing */
    assert_int_equal(lint_source(LINT_PYTHON, big, 1u << 20, NULL, &r, &err), 0);
    assert_int_equal(r.n, 0);
    /* deep indentation is refused past CPython's limit, not crashed on */
    size_t off = 0;
    for (int d = 0; d < 150 && off + 400 < n; d++) {
        for (int s = 0; s < d; s++) big[off++] = ' ';
        memcpy(big + off, "if x:\n", 6);
        off += 6;
    }
    assert_int_equal(lint_source(LINT_PYTHON, big, off, NULL, &r, &err), -1);
    assert_non_null(strstr(err.msg, "indentation"));
    /* 1 Mi f-string fields nested in one another stay bounded */
    off = 0;
    for (int d = 0; d < 100000; d++) big[off++] = 'f', big[off++] = '"', big[off++] = '{';
    assert_int_equal(lint_source(LINT_PYTHON, big, off, NULL, &r, &err), 0);
    free(big);
    lint_report_release(&r);
}

/* A notebook's code cells as Python, each line placed in the .ipynb
 * (lintnb): keys and output strings before the source (with escaped
 * quotes) do not shift the placing; magics, shell escapes and markdown
 * become blank lines. */
static void test_notebook_extract(void **state)
{
    (void)state;
    static const char nb_text[] = "{\"cells\": [\n"
                                  " {\"cell_type\": \"markdown\", \"source\": [\"total += loss\\n\"]},\n"
                                  " {\"cell_type\": \"code\", \"outputs\": [{\"text\": [\"a \\\"q\\\"\\n\"]}],\n"
                                  "  \"source\": [\"!nvidia-smi\\n\",\n"
                                  "             \"x = 1\\n\",\n"
                                  "             \"y = 2\"]}\n"
                                  "], \"nbformat\": 4}";
    struct lint_nb nb;
    struct oomlab_err err = {{0}};
    assert_int_equal(lint_nb_extract(nb_text, strlen(nb_text), &nb, &err), 0);
    assert_int_equal(nb.n_lines, 3);
    assert_memory_equal(nb.py, "\nx = 1\ny = 2\n", nb.len);
    assert_int_equal(nb.line_at[2], 5); /* "x = 1" is on the file's fifth line */
    assert_int_equal(nb.col_at[2], 15);
    assert_int_equal(nb.line_at[3], 6);
    assert_true(nb.col_exact[2]);
    lint_nb_release(&nb);
    /* one string of several lines (Colab, nbformat's other form): each
     * line is placed where its text begins inside the string (stranger17:
     * every later line was placed at the string's start, column unknown) */
    static const char one[] = "{\"cells\": [{\"cell_type\": \"code\", \"source\": \"a = 1\\nb = 2\\u000Ac\\\"\\n\"}]}";
    assert_int_equal(lint_nb_extract(one, strlen(one), &nb, &err), 0);
    assert_int_equal(nb.n_lines, 3);
    assert_int_equal(nb.line_at[2], 1);
    assert_int_equal(nb.col_at[1], (uint32_t)(strstr(one, "a = 1") - one) + 1);
    assert_int_equal(nb.col_at[2], (uint32_t)(strstr(one, "b = 2") - one) + 1);
    assert_int_equal(nb.col_at[3], (uint32_t)(strstr(one, "c\\\"") - one) + 1);
    assert_true(nb.col_exact[1] && nb.col_exact[2] && nb.col_exact[3]);
    lint_nb_release(&nb);
    assert_int_equal(lint_nb_extract("{\"cells\": [", 11, &nb, &err), -1);
    assert_non_null(strstr(err.msg, "ends early"));
}

/* A notebook's lines broken by "\u000a" escapes (JSON's other spelling of
 * a newline; a writer may escape every control character): each is a line
 * of its own, placed in the file. The line tables were sized by the "\n"
 * escapes alone, and 2000 such lines in a one-line notebook wrote past them
 * (fuzz25: fuzz_lint's find, a heap overflow under ASan, heap corruption
 * in a plain build). */
static void test_notebook_unicode_newlines(void **state)
{
    (void)state;
    enum { N = 2000 };
    static const char head[] = "{\"cells\": [{\"cell_type\": \"code\", \"source\": \"";
    static const char tail[] = "x = 1\"}]}";
    char *text = malloc(sizeof head + 6 * N + sizeof tail);
    assert_non_null(text);
    size_t n = sizeof head - 1;
    memcpy(text, head, n);
    for (int k = 0; k < N; k++, n += 6) memcpy(text + n, k % 2 ? "\\u000A" : "\\u000a", 6);
    memcpy(text + n, tail, sizeof tail);
    n += sizeof tail - 1;
    struct lint_nb nb;
    struct oomlab_err err = {{0}};
    assert_int_equal(lint_nb_extract(text, n, &nb, &err), 0);
    assert_int_equal(nb.n_lines, N + 1);
    assert_int_equal(nb.len, N + sizeof "x = 1");
    assert_memory_equal(nb.py + N, "x = 1\n", 6);
    for (size_t k = 1; k <= N + 1; k++) {
        assert_int_equal(nb.line_at[k], 1);
        assert_int_equal(nb.col_at[k], (uint32_t)(sizeof head + 6 * (k - 1)));
    }
    lint_nb_release(&nb);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_strings),     cmocka_unit_test(test_layout),
        cmocka_unit_test(test_positions),   cmocka_unit_test(test_tree),
        cmocka_unit_test(test_rules),       cmocka_unit_test(test_suppression),
        cmocka_unit_test(test_languages),   cmocka_unit_test(test_hostile),
        cmocka_unit_test(test_train_tensors), cmocka_unit_test(test_torch_requirements),
        cmocka_unit_test(test_model_constants), cmocka_unit_test(test_alloc_vars),
        cmocka_unit_test(test_project_gpu), cmocka_unit_test(test_sampling_functions),
        cmocka_unit_test(test_eval_through_helper), cmocka_unit_test(test_notebook_extract),
        cmocka_unit_test(test_notebook_unicode_newlines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
