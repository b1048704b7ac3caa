// Placeholder until the command dispatcher lands.
int main() { return 70; }
