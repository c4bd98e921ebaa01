"""Where the Python client and its examples live in the repository."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
CLIENT = ROOT / "clients" / "python"
CLIENT_SRC = CLIENT / "src"
EXAMPLES = CLIENT / "examples"
