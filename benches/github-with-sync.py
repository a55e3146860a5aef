#!/usr/bin/env python3
"""Adds a synchronization section to GitHub's REST description, for the lint benchmark.

The section pushes platform accounts as GitHub issues (an arbitrary but well-formed mapping
onto real paths of the document), so that every syncdef rule has work to do on a 13 MB file.
It is written as `x-synchronization`, which syncdef reads like `synchronization`: the plain
OpenAPI linters it is compared with then see a valid OpenAPI 3.0 document instead of stopping
at an unknown top-level key.

    python3 benches/github-with-sync.py benches/data/api.github.com.json > benches/data/github-sync.json
"""
import json
import sys

doc = json.load(open(sys.argv[1]))
doc["servers"] = [{
    "url": "https://api.github.com",
    "variables": {
        "owner": {"default": "octo-org", "description": "repository owner"},
        "repo": {"default": "billing", "description": "repository name"},
    },
}]
doc.setdefault("components", {}).setdefault("securitySchemes", {})["oauth2"] = {
    "type": "oauth2",
    "flows": {"authorizationCode": {
        "authorizationUrl": "https://github.com/login/oauth/authorize",
        "tokenUrl": "https://github.com/login/oauth/access_token",
        "scopes": {"repo": "repositories"},
    }},
}
doc["security"] = [{"oauth2": ["repo"]}]
doc["x-synchronization"] = {
    "Account": {
        "description": "Platform accounts as issues of a tracking repository",
        "module": "Accounts",
        "push": {
            "create": "/repos/{owner}/{repo}/issues/post",
            "update": "/repos/{owner}/{repo}/issues/{IntegrationId}/patch",
            "schemasTransformer": {
                "createRequest": {
                    "title": "#valueof($.account.name)",
                    "body": "#xconcat(Account ,#valueof($.account.code), created ,#valueof($.account.createdAt))",
                    "labels": ["billing", "#valueof($.serverVariables.repo)"],
                },
                "createResponse": "{\"id\": \"#valueof($.number)\", \"success\": true}",
                "updateRequest": {
                    "title": "#valueof($.account.name)",
                    "state": "#ifcondition(#valueof($.account.isTaxable),true,open,closed)",
                },
            },
        },
    }
}
json.dump(doc, sys.stdout, indent=2)
