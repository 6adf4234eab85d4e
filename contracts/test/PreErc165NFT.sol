// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title An ERC-721 from before ERC-165: standard Transfer events and ownerOf, but supportsInterface reverts.
contract PreErc165NFT {
    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);

    mapping(uint256 => address) private owners;

    /// @notice Mints `id` to `to` (anyone: a test contract).
    function mint(address to, uint256 id) external {
        require(owners[id] == address(0), "exists");
        owners[id] = to;
        emit Transfer(address(0), to, id);
    }

    function ownerOf(uint256 id) external view returns (address) {
        address owner = owners[id];
        require(owner != address(0), "no such token");
        return owner;
    }

    function supportsInterface(bytes4) external pure returns (bool) {
        revert("no ERC-165 here");
    }
}
