"""Write `data/gate/memory/lookalikes.jsonl`: benign technical memories for the detector's training.

The public datasets hold chat prompts, not memories: they have almost no hashes, URLs, ids,
paths, version strings or short notes, so a model trained on them alone reads any odd token as
an attack. These rows are ordinary technical facts of the kind a coding assistant remembers,
made from templates with a seeded random generator (the same file on every run).

    python scripts/make_gate_lookalikes.py
"""

from __future__ import annotations

import json
import random
import string
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "data" / "gate" / "memory" / "lookalikes.jsonl"
SEED = 7812
COUNT = 1800

_HOSTS = (
    "example.com",
    "docs.internal.example",
    "git.example.org",
    "grafana.example.net",
    "jira.example.com",
    "wiki.example.io",
    "status.example.com",
    "cdn.example.org",
)
_WORDS = (
    "billing",
    "search",
    "auth",
    "reports",
    "payments",
    "ingest",
    "gateway",
    "frontend",
    "mobile",
    "infra",
    "analytics",
    "notifications",
    "orders",
    "catalog",
    "checkout",
)
_NAMES = ("Priya", "Tomás", "Aiko", "Lena", "Omar", "Chen", "Sofia", "Kwame", "Marta", "Ivan")
_LANGS = ("Python", "Go", "Rust", "TypeScript", "Kotlin", "Java", "C#", "Elixir", "Ruby")


def _hex(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def _alnum(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(n))


# Credential labels as the detector reads them: the secret detectors own the secret itself, and
# the gate scores a text with every secret it found cut out, so what is left is a label.
_CREDENTIAL_LABELS = (
    "password:",
    "password is",
    "Wi-Fi password:",
    "the NAS password is",
    "db_password=",
    "Your verification code is",
    "verification code:",
    "one-time code",
    "PIN for the garage:",
    "door code is",
    "aws_secret_access_key =",
    "aws_access_key_id =",
    "Deploy key:",
    "GitHub token",
    "export OPENAI_API_KEY=",
    "Authorization: Bearer",
    "Authorization: Basic",
    "api_key:",
    "STRIPE_SECRET_KEY=",
    "client_secret:",
    "private key:",
    "recovery phrase:",
    "backup codes:",
    "p a s s w o r d :",
    "p-a-s-s-w-o-r-d",
    "pw:",
    "pass:",
    "passphrase:",
    "Passwort fürs Portal",
    "Passwort:",
    "Kennwort lautet",
    "Bestätigungscode:",
    "mot de passe du wifi :",
    "mot de passe :",
    "code de vérification :",
    "contraseña del router:",
    "contraseña:",
    "código de verificación:",
    "senha do banco:",
    "senha:",
    "código:",
    "password della mail:",
    "codice di verifica:",
    "wachtwoord:",
    "verificatiecode:",
    "hasło do poczty:",
    "kod weryfikacyjny:",
    "пароль от почты:",
    "код подтверждения:",
    "şifre:",
    "doğrulama kodu:",
    "kata sandi:",
    "kode verifikasi:",
    "mật khẩu:",
    "mã xác minh:",
    "密码是",
    "验证码：",
    "パスワードは",
    "認証コード：",
    "비밀번호는",
    "인증번호:",
    "كلمة المرور:",
    "رمز التحقق:",
    "סיסמה:",
    "रहस्य कोड:",
    "पासवर्ड:",
    "รหัสผ่าน:",
)
_OWNERS = ("", "User's ", "My ", "Home ", "Office ", "Team ", "Her ", "His ", "Mum's ", "The ")


def _credential(rng: random.Random) -> str:
    label = rng.choice(_CREDENTIAL_LABELS)
    owner = rng.choice(_OWNERS) if label[0].isascii() and label[0].isalpha() else ""
    if owner and label[0].isupper() and not label.startswith(("Wi", "GitHub", "PIN", "Deploy")):
        label = label[0].lower() + label[1:]
    tail = rng.choice(("", "", " (rotated monthly)", " — ask before using", " until Friday"))
    return f"{owner}{label} {tail}".strip()


def _row(rng: random.Random) -> str:
    w, w2 = rng.choice(_WORDS), rng.choice(_WORDS)
    host, name, lang = rng.choice(_HOSTS), rng.choice(_NAMES), rng.choice(_LANGS)
    n = rng.randint(2, 9999)
    templates = (
        f"Commit {_hex(rng, 7)} fixed the {w} regression.",
        f"Release tag v{rng.randint(0, 9)}.{rng.randint(0, 30)}.{rng.randint(0, 20)} of {w} went out on Tuesday.",
        f"sha256: {_hex(rng, 64)}",
        f"Image digest sha256:{_hex(rng, 64)} is the last good {w} build.",
        f"Dashboard: https://{host}/d/{_alnum(rng, 8)}/{w}?orgId=1&from=now-6h",
        f"Runbook for {w}: https://{host}/{w}/runbook#section-{n}",
        f"Design doc https://{host}/docs/{_alnum(rng, 12)} covers the {w} rewrite.",
        f"Ticket {w.upper()[:4]}-{n} tracks the flaky {w2} test.",
        f"Order #{rng.randint(10**6, 10**9)} for the new monitors ships next week.",
        f"UUID of the {w} tenant: {_hex(rng, 8)}-{_hex(rng, 4)}-{_hex(rng, 4)}-{_hex(rng, 4)}-{_hex(rng, 12)}",
        f"Colours for the {w} charts: #{_hex(rng, 6)}, #{_hex(rng, 6)}, #{_hex(rng, 6)}.",
        f"Config lives in /etc/{w}/{w2}.yaml; port {rng.randint(1024, 65535)}.",
        f"The {w} service listens on 10.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}:{rng.randint(1024, 9999)}.",
        f"{name} owns the {w} pipeline; ping them before touching {w2}.",
        f"Uses {lang} for the {w} service and {rng.choice(_LANGS)} for tooling.",
        f"Gist with the {w} query: https://gist.github.com/{name.lower()}/{_hex(rng, 32)}",
        f"Video on {w} caching: https://www.youtube.com/watch?v={_alnum(rng, 11)}",
        f"Search link: https://{host}/search?q={w}%20{w2}&lang=en&page={rng.randint(1, 9)}",
        f"Meeting link https://meet.{host}/{_alnum(rng, 3).lower()}-{_alnum(rng, 4).lower()}-{_alnum(rng, 3).lower()}",
        f"Env var {w.upper()}_API_URL points at https://{host}/api/v{rng.randint(1, 3)}.",
        f"In docs write {w}_token=YOUR_TOKEN_HERE, never a real one.",
        f"Config reads api_key: ${{{w.upper()}_API_KEY}} from the environment.",
        f"Retry on HTTP {rng.choice((429, 500, 502, 503, 504))} with exponential backoff, max {rng.randint(2, 8)} tries.",
        f"Key takeaway from the {w} retro: ship smaller pull requests.",
        f"Note: {name} prefers reviews before noon.",
        f"Keyboard shortcut for the {w} panel: ctrl + shift + {rng.choice(string.ascii_lowercase)}",
        f"Scores from the quiz: {' '.join(rng.choice('yn') for _ in range(rng.randint(4, 9)))}",
        f"Row of the seating chart: {' '.join(rng.choice(string.ascii_uppercase) + str(rng.randint(1, 60)) for _ in range(5))}",
        f"Public key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAA{_alnum(rng, 43)} {name.lower()}@laptop",
        f"npm lockfile integrity sha512-{_alnum(rng, 40)}",
        f"Version pins: {w}=={rng.randint(0, 5)}.{rng.randint(0, 30)}.{rng.randint(0, 9)}, {w2}>={rng.randint(1, 4)}.0",
        f'Config file: {{"name": "{w}", "version": "{rng.randint(0, 3)}.{rng.randint(0, 9)}.0", "debug": false}}',
        f"SQL for the {w} report: SELECT id, total FROM {w2} WHERE created_at > now() - interval '7 days';",
        f"Cron for the {w} job: {rng.randint(0, 59)} {rng.randint(0, 23)} * * {rng.randint(1, 5)}",
        f"Branch naming: feature/{w}-{n}, fix/{w2}-{rng.randint(1, 999)}.",
        f"The {w} system prompt template is in prompts/{w}.md; {name} edits it.",
        f"Admin panel for {w}: https://{host}/admin (SSO only, no shared passwords).",
        f"Ignore the {w} lint warnings in generated files under gen/{w2}/.",
        f"Override the default {w} timeout to {rng.randint(5, 120)}s only in staging.",
        f"Debug mode for {w} is enabled locally with {w.upper()}_DEBUG=1.",
    )
    return rng.choice(templates)


def main() -> None:
    rng = random.Random(SEED)
    seen: set[str] = set()
    rows: list[str] = []
    while len(rows) < COUNT:
        text = _credential(rng) if rng.random() < 0.2 else _row(rng)
        if text not in seen:
            seen.add(text)
            rows.append(text)
    with OUT.open("w", encoding="utf-8") as handle:
        for text in rows:
            item = {"text": text, "label": 0, "kind": "lookalike", "lang": "en"}
            handle.write(json.dumps(item, ensure_ascii=False) + "\n")
    print(f"wrote {len(rows)} rows to {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
