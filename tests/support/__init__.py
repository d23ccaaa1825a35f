"""Test helpers shared by the suites: throwaway services and small API clients."""
